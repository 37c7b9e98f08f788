// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { switchToWaitingWorker, type WorkerContainer } from './app-update';

class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installed';
  readonly messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeContainer extends EventTarget implements WorkerContainer {
  changeController() {
    this.dispatchEvent(new Event('controllerchange'));
  }
}

function waitingOn(worker: FakeWorker | null) {
  return { waiting: worker as unknown as ServiceWorker | null };
}

describe('switching to the waiting build', () => {
  it('tells the waiting worker to take over and reloads once this page has it, not before', () => {
    const worker = new FakeWorker();
    const container = new FakeContainer();
    const reload = vi.fn();
    switchToWaitingWorker(waitingOn(worker), container, reload);
    expect(worker.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    worker.become('activating');
    expect(reload).not.toHaveBeenCalled();
    container.changeController();
    expect(reload).toHaveBeenCalledTimes(1);
    // The worker's own `activated` after the controller change reloads nothing more.
    worker.become('activated');
    container.changeController();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads a page the old worker did not control once the new worker is activated', () => {
    const worker = new FakeWorker();
    const reload = vi.fn();
    switchToWaitingWorker(waitingOn(worker), new FakeContainer(), reload);
    worker.become('activating');
    expect(reload).not.toHaveBeenCalled();
    worker.become('activated');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads at once when no worker waits any more (another tab switched already)', () => {
    const reload = vi.fn();
    switchToWaitingWorker(waitingOn(null), new FakeContainer(), reload);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
