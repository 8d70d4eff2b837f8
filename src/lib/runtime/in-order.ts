/**
 * Work on one key runs in the order it was asked for, one at a time; other keys run alongside. A key is
 * held only while its work runs or waits, so the map never holds more keys than there is work in flight.
 * Ask synchronously (before any `await`) where the order of the asks is the order that matters: an event
 * bus starts its subscribers in the order it emits.
 */
export class InOrder {
  private readonly tails = new Map<string, Promise<void>>()

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key)
    // a failure is its caller's: the next work of the key runs anyway
    const result = before ? before.then(work) : work()
    const tail = result.then(
      () => undefined,
      () => undefined
    )
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }

  /** Keys with work running or waiting. */
  get size(): number {
    return this.tails.size
  }
}
