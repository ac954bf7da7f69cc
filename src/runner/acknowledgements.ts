/**
 * Orders a request's acknowledgement before its work. Ingress records the request, then
 * acknowledges it (GitHub: 👀, which means "recorded"); a queue in the same process may start the
 * job before the acknowledgement is out, so the job first waits for it. (Across processes the
 * job cannot wait; there the acknowledgement may land after the job has started.)
 */
export class Acknowledgements {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  /**
   * Records with `submit` and, when it took the request, runs `acknowledge`. Resolves with what
   * `submit` said (false: a delivery already recorded, nothing acknowledged) as soon as the request
   * is recorded: the webhook is answered then, and the acknowledgement (an API call) goes on after.
   */
  async intake(id: string, submit: () => Promise<boolean>, acknowledge: () => Promise<void>): Promise<boolean> {
    // Registered before the first await, so a job the queue starts at once already finds it.
    const previous = this.inFlight.get(id);
    // A redelivery racing the first delivery waits for it, then finds the id taken.
    const recorded = (previous ?? Promise.resolve()).then(submit);
    const settled = recorded
      .then(async (accepted) => {
        if (accepted) await acknowledge();
      })
      .then(
        () => undefined,
        () => undefined,
      );
    // A later intake of the same id must not hide an earlier one's acknowledgement still in flight.
    const entry = previous ? Promise.all([previous, settled]) : settled;
    this.inFlight.set(id, entry);
    void entry.then(() => {
      if (this.inFlight.get(id) === entry) this.inFlight.delete(id);
    });
    return recorded;
  }

  /** Resolves once the request's acknowledgement is out (at once when none is in flight). */
  async acknowledged(id: string): Promise<void> {
    await this.inFlight.get(id);
  }
}
