import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { useIntake } from '../api/get-intake';
import { IntakeEditor } from './intake-editor';

export default function IntakeFormPage() {
  const [params] = useSearchParams();
  const intakeId = params.get('intake_id');
  const readOnly = params.get('view') === 'true';
  if (!intakeId) return <IntakeEditor key="new" intake={null} readOnly={false} />;
  return <ExistingIntake key={`${intakeId}-${String(readOnly)}`} intakeId={intakeId} readOnly={readOnly} />;
}

function ExistingIntake({ intakeId, readOnly }: { intakeId: string; readOnly: boolean }) {
  const intake = useIntake(intakeId);
  const announced = useRef(false);
  useEffect(() => {
    if (intake.data && !announced.current) {
      announced.current = true;
      toast.success('Intake Loaded');
    }
  }, [intake.data]);

  if (intake.isPending) return <Loading text="Loading intake..." />;
  if (!intake.data) {
    return (
      <div className="flex flex-col items-start gap-3">
        <h1 className="text-2xl font-bold">Intake not found</h1>
        <p className="text-sm text-muted-foreground">Failed to load intake</p>
        <Button asChild variant="outline">
          <Link to="/clients">Back to Clients</Link>
        </Button>
      </div>
    );
  }
  return <IntakeEditor key={intake.data.id} intake={intake.data} readOnly={readOnly} />;
}
