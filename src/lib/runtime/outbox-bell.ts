import { EventEmitter } from "node:events"

/**
 * Rung when outbox rows commit, so the module delivers at once. The provider's container cannot resolve
 * our module, so they share only the process: the bell lives on globalThis, where two copies of the
 * package still hear each other. The job delivers whatever a ring missed.
 */
const KEY = Symbol.for("medusa-payment-crypto.outbox-bell")

type Holder = { [KEY]?: EventEmitter }

function bell(): EventEmitter {
  const holder = globalThis as Holder
  if (!holder[KEY]) holder[KEY] = new EventEmitter().setMaxListeners(0)
  return holder[KEY]
}

export function ringOutbox(): void {
  bell().emit("ring")
}

/** Returns the function that stops listening: each module instance removes its own listener when it stops. */
export function onOutboxRing(listener: () => void): () => void {
  bell().on("ring", listener)
  return () => bell().off("ring", listener)
}

export function outboxListeners(): number {
  return bell().listenerCount("ring")
}
