import { RunCoalescer } from "../run-coalescer"

/** A run the test finishes by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
const tick = () => new Promise((resolve) => setImmediate(resolve))

describe("RunCoalescer", () => {
  it("fifty concurrent calls for one key cost two runs, each call answered by a run that began after it arrived", async () => {
    const coalescer = new RunCoalescer<number>()
    const runs: Array<ReturnType<typeof deferred<number>>> = []
    const work = () => {
      const run = deferred<number>()
      runs.push(run)
      return run.promise
    }
    const first = coalescer.run("pay_1", work)
    await tick()
    const rest = Array.from({ length: 49 }, () => coalescer.run("pay_1", work))
    await tick()
    expect(runs).toHaveLength(1)
    runs[0].resolve(1)
    await tick()
    expect(runs).toHaveLength(2)
    runs[1].resolve(2)
    expect(await first).toBe(1)
    expect(await Promise.all(rest)).toEqual(rest.map(() => 2))
    expect(coalescer.size).toBe(0)
  })

  it("keys run independently, and a failure is the outcome of the calls that joined it only", async () => {
    const coalescer = new RunCoalescer<string>()
    const a = deferred<string>()
    const b = deferred<string>()
    const pa = coalescer.run("a", () => a.promise)
    const pb = coalescer.run("b", () => b.promise)
    const after = coalescer.run("a", async () => "second")
    a.reject(new Error("lock busy"))
    b.resolve("b")
    await expect(pa).rejects.toThrow("lock busy")
    expect(await pb).toBe("b")
    expect(await after).toBe("second")
    await tick()
    expect(coalescer.size).toBe(0)
  })

  it("holds a key only while its run is under way, also when the run rejects", async () => {
    const coalescer = new RunCoalescer<number>()
    const runs = Array.from({ length: 100 }, () => deferred<number>())
    const calls = runs.flatMap((run, i) => [
      coalescer.run(`pay_${i}`, () => run.promise),
      coalescer.run(`pay_${i}`, () => Promise.reject(new Error("lock busy"))),
    ])
    await tick()
    expect(coalescer.size).toBe(100)
    runs.forEach((run) => run.reject(new Error("service down")))
    await Promise.allSettled(calls)
    await tick()
    expect(coalescer.size).toBe(0)
  })

  it("a call after everything settled starts a fresh run", async () => {
    const coalescer = new RunCoalescer<number>()
    let n = 0
    expect(await coalescer.run("k", async () => ++n)).toBe(1)
    await tick()
    expect(await coalescer.run("k", async () => ++n)).toBe(2)
  })
})
