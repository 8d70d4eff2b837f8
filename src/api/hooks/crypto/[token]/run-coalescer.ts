/**
 * Coalesces concurrent runs of one key: a call joins the run waiting to start, never one that already
 * started (it may have read before the call's news), so a flood of duplicates costs two runs. A key is
 * removed once its last run settles.
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
