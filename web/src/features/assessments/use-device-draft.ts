/**
 * The assessment this screen edits as saved on the device while offline (lib/offline):
 * read when the screen opens and again whenever a draft is saved, sent or refused.
 */
import { useEffect, useState } from 'react';
import { draftTarget, type OpenDraft, onDraftsChanged, readDraft } from '@/lib/offline/drafts';
import type { Assessment, AssessmentForm } from './api/types';

export type DeviceDraft = OpenDraft<AssessmentForm, Assessment>;

export interface DeviceDraftState {
  /** Read at least once: until then the screen does not know whether one exists. */
  loaded: boolean;
  draft: DeviceDraft | null;
}

export function useDeviceDraft(assessmentId: string | null, intakeId: string | null): DeviceDraftState {
  const target = draftTarget(assessmentId, intakeId);
  const [state, setState] = useState<DeviceDraftState & { target: string }>({ target, loaded: false, draft: null });
  useEffect(() => {
    let live = true;
    const read = () =>
      void readDraft<AssessmentForm, Assessment>(target)
        .catch(() => null)
        .then((draft) => {
          if (live) setState({ target, loaded: true, draft });
        });
    read();
    const stop = onDraftsChanged(read);
    return () => {
      live = false;
      stop();
    };
  }, [target]);
  return state.target === target ? state : { loaded: false, draft: null };
}
