import type { IntakeBinder } from '../api/types';
import { CallerSection, ClientSection, FormHeaderSection } from './intake-sections-people';
import { ClientNeedsSection, LivingSituationSection, MedicalSection, PaymentSection, ScheduleSection, ServicesSection } from './intake-sections-needs';
import { AssessmentSection, CommentsSection, FollowUpReminderSection, NotScheduledSection, OfficeUseSection } from './intake-sections-follow-up';

/** The fourteen sections of the intake form, in the spec's order. */
export function IntakeSections({ binder }: { binder: IntakeBinder }) {
  return (
    <>
      <FormHeaderSection binder={binder} />
      <CallerSection binder={binder} />
      <ClientSection binder={binder} />
      <LivingSituationSection binder={binder} />
      <ClientNeedsSection binder={binder} />
      <ServicesSection binder={binder} />
      <MedicalSection binder={binder} />
      <ScheduleSection binder={binder} />
      <PaymentSection binder={binder} />
      <AssessmentSection binder={binder} />
      <NotScheduledSection binder={binder} />
      <CommentsSection binder={binder} />
      <FollowUpReminderSection binder={binder} />
      <OfficeUseSection binder={binder} />
    </>
  );
}
