import { EventEmitter } from "node:events"

/**
 * A process-wide bell: whoever commits a row to the event outbox rings it, and the crypto payment
 * module delivers the outbox at once. The provider (inside Medusa's payment module, whose container
 * cannot resolve ours) and the module share the process, not a container; the bell lives on
 * globalThis so two copies of the package in one process still hear each other. Only a shortcut:
 * the job delivers whatever a ring missed (another process, a crash) on its next tick.
 */
const KEY = Symbol.for("medusa-payment-crypto.outbox-bell")

type Holder = { [KEY]?: EventEmitter }

function bell(): EventEmitter {
  const holder = globalThis as Holder
  if (!holder[KEY]) holder[KEY] = new EventEmitter().setMaxListeners(0)
  return holder[KEY]
}

/** Says that outbox rows were committed. */
export function ringOutbox(): void {
  bell().emit("ring")
}

/**
 * Listens for rings; returns the function that stops listening. The bell holds one listener per
 * module instance that listens (one per process, more in tests): each removes its own when it stops.
 */
export function onOutboxRing(listener: () => void): () => void {
  bell().on("ring", listener)
  return () => bell().off("ring", listener)
}

/** Listeners the bell holds now (the bound's test). */
export function outboxListeners(): number {
  return bell().listenerCount("ring")
}
