/** Polls `probe` until it returns a value that `done` accepts, or fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 200, what = "the condition" } = {}
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await probe()
    if (done(last)) return last
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
