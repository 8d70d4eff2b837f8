/**
 * Coalesces concurrent runs of one key in this process: a call starts a run when none is waiting to
 * start, and otherwise joins the one waiting. A call never joins a run that started before it arrived
 * (that run may have read what the call's news changed), so at most one run is active and one waits
 * per key, and every call gets the outcome of a run that began after it came in. A flood of duplicate
 * notifications for one payment costs two runs, not one lock wait each. Bounded by the runs' lives: a
 * key is removed once its last run settles, fulfilled or rejected, so the map holds only the keys
 * with a request under way.
 */
export class RunCoalescer<T> {
  private readonly runs = new Map<string, { active: Promise<T>; waiting?: Promise<T> }>()

  run(key: string, work: () => Promise<T>): Promise<T> {
    const slot = this.runs.get(key)
    if (!slot) {
      const active = this.start(key, work)
      this.runs.set(key, { active })
      return active
    }
    // the next run starts once the active one has settled, whatever its outcome
    slot.waiting ??= slot.active.then(
      () => this.promote(key, work),
      () => this.promote(key, work)
    )
    return slot.waiting
  }

  /** How many keys have a run active (for tests and diagnostics). */
  get size(): number {
    return this.runs.size
  }

  /** The waiting run becomes the active one: calls from now on wait for the run after it. */
  private promote(key: string, work: () => Promise<T>): Promise<T> {
    const active = this.start(key, work)
    this.runs.set(key, { active })
    return active
  }

  private start(key: string, work: () => Promise<T>): Promise<T> {
    const active = Promise.resolve().then(work)
    const done = () => {
      const slot = this.runs.get(key)
      if (slot?.active === active && !slot.waiting) this.runs.delete(key)
    }
    active.then(done, done)
    return active
  }
}
