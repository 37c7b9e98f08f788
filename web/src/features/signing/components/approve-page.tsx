import { useState, type SyntheticEvent } from 'react';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useApproveProposal, useAskQuestion, useProposalLetter } from '../api/public';
import { Money, PublicLayout, UnusableLink } from './public-layout';

/** `/approve/:token`: the family reads the proposal, approves it or asks a question. */
export default function ApprovePage({ token }: { token: string }) {
  const letter = useProposalLetter(token);
  const approve = useApproveProposal(token);
  const ask = useAskQuestion(token);
  const [name, setName] = useState('');
  const [asking, setAsking] = useState(false);
  const [question, setQuestion] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  if (letter.isPending) return <Loading />;
  if (letter.isError) return <UnusableLink kind="approve" token={token} error={letter.error} />;
  const data = letter.data;
  const done = approve.data ?? ask.data;

  const onApprove = (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!name.trim()) {
      setProblem('Please type your full name.');
      return;
    }
    approve.mutate({ name }, { onError: (cause) => setProblem(errorMessage(cause, 'The approval could not be recorded. Please try again.')) });
  };
  const onAsk = (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!name.trim() || !question.trim()) {
      setProblem('Please type your name and your question.');
      return;
    }
    ask.mutate({ name, message: question }, { onError: (cause) => setProblem(errorMessage(cause, 'Your question could not be sent. Please try again.')) });
  };

  return (
    <PublicLayout agency={data} title="Your Home Care Proposal">
      <p>
        Dear {data.family_contact_name || 'family'}, here is the care we propose for <strong>{data.client_name}</strong>.
      </p>
      <Card>
        <CardHeader>
          <CardTitle>Services</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col gap-2">
            {data.services.map((service) => (
              <li key={service.label}>
                <span className="font-medium">{service.label}</span>
                <span className="block text-sm text-muted-foreground">{service.description}</span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Schedule</CardTitle>
        </CardHeader>
        <CardContent>
          <table className="w-full text-sm">
            <caption className="sr-only">Weekly schedule</caption>
            <thead>
              <tr className="text-left">
                <th scope="col">Day</th>
                <th scope="col">Time</th>
                <th scope="col">Hours</th>
              </tr>
            </thead>
            <tbody>
              {data.schedule.map((line) => (
                <tr key={line.day}>
                  <td>{line.day}</td>
                  <td>{line.time || '—'}</td>
                  <td>{line.hours}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.proposed_start_date ? <p className="mt-2 text-sm">Proposed start: {data.proposed_start_date}</p> : null}
          {data.additional_notes ? <p className="mt-2 text-sm whitespace-pre-line">{data.additional_notes}</p> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Cost</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-1 text-sm">
            <dt>Hourly rate</dt>
            <dd>
              <Money value={data.hourly_rate} />
            </dd>
            <dt>Hours per week</dt>
            <dd>{data.total_weekly_hours}</dd>
            <dt>Weekly cost</dt>
            <dd className="font-semibold">
              <Money value={data.weekly_cost} />
            </dd>
            <dt>Monthly cost</dt>
            <dd className="font-semibold">
              <Money value={data.monthly_cost} />
            </dd>
          </dl>
        </CardContent>
      </Card>
      {data.agency_phone ? (
        <p className="text-sm">
          Questions? Call {data.agency_name} at <a href={`tel:${data.agency_phone}`}>{data.agency_phone}</a>.
        </p>
      ) : null}
      {done ? (
        <p role="status" className="rounded-md border border-primary bg-background p-4 font-medium">
          {done.message}
        </p>
      ) : (
        <Card>
          <CardContent className="pt-4">
            <form className="flex flex-col gap-3" onSubmit={asking ? onAsk : onApprove} noValidate>
              <div className="flex flex-col gap-1">
                <Label htmlFor="approver-name">Your full name</Label>
                <Input id="approver-name" autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} />
              </div>
              {asking ? (
                <div className="flex flex-col gap-1">
                  <Label htmlFor="question">Your question</Label>
                  <Textarea id="question" value={question} onChange={(event) => setQuestion(event.target.value)} />
                </div>
              ) : null}
              {problem ? (
                <p role="alert" className="text-sm text-destructive">
                  {problem}
                </p>
              ) : null}
              <div className="flex flex-col gap-2 sm:flex-row">
                {asking ? (
                  <>
                    <Button type="submit" disabled={ask.isPending}>
                      Send my question
                    </Button>
                    <Button variant="outline" onClick={() => setAsking(false)}>
                      Back
                    </Button>
                  </>
                ) : (
                  <>
                    <Button type="submit" disabled={approve.isPending}>
                      Approve this proposal
                    </Button>
                    <Button variant="outline" onClick={() => setAsking(true)}>
                      I have questions
                    </Button>
                  </>
                )}
              </div>
            </form>
          </CardContent>
        </Card>
      )}
      <p className="text-xs text-muted-foreground">This personal link works until {new Date(data.expires_at).toLocaleDateString('en-US')}.</p>
    </PublicLayout>
  );
}
