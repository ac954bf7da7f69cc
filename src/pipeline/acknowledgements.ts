/**
 * Orders a request's acknowledgement before its work. Ingress records the request, then
 * acknowledges it (GitHub: 👀, which means "recorded"); a queue in the same process may start the
 * job before the acknowledgement is out, so the job first waits for it. (Across processes the
 * job cannot wait; there the acknowledgement may land after the job has started.)
 */
export class Acknowledgements {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  /**
   * Records with `submit` and, when it took the request, runs `acknowledge`. Returns what
   * `submit` said (false: a delivery already recorded, nothing acknowledged).
   */
  async intake(id: string, submit: () => Promise<boolean>, acknowledge: () => Promise<void>): Promise<boolean> {
    // A redelivery racing the first delivery waits for it, then finds the id taken.
    await this.inFlight.get(id);
    const work = (async () => {
      const accepted = await submit();
      if (accepted) await acknowledge();
      return accepted;
    })();
    const settled = work.catch(() => undefined);
    this.inFlight.set(id, settled);
    try {
      return await work;
    } finally {
      if (this.inFlight.get(id) === settled) this.inFlight.delete(id);
    }
  }

  /** Resolves once the request's acknowledgement is out (at once when none is in flight). */
  async acknowledged(id: string): Promise<void> {
    await this.inFlight.get(id);
  }
}
