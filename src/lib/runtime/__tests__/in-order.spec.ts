import { InOrder } from "../in-order"

/** A promise and its resolve, to finish work when the test says so. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe("InOrder", () => {
  it("runs one key's work in the order asked, even when the first is the slowest", async () => {
    const inOrder = new InOrder()
    const done: string[] = []
    const first = gate()
    const a = inOrder.run("p1", async () => {
      await first.opened
      done.push("detected")
    })
    const b = inOrder.run("p1", async () => {
      done.push("paid")
    })
    // the second waits for the first
    await new Promise((resolve) => setImmediate(resolve))
    expect(done).toEqual([])
    first.open()
    await Promise.all([a, b])
    expect(done).toEqual(["detected", "paid"])
  })

  it("runs other keys alongside", async () => {
    const inOrder = new InOrder()
    const held = gate()
    const slow = inOrder.run("p1", () => held.opened)
    await expect(inOrder.run("p2", async () => "other")).resolves.toBe("other")
    held.open()
    await slow
  })

  it("hands a failure to its caller and runs the key's next work anyway", async () => {
    const inOrder = new InOrder()
    const failing = inOrder.run("p1", async () => {
      throw new Error("mail server down")
    })
    const next = inOrder.run("p1", async () => "sent")
    await expect(failing).rejects.toThrow("mail server down")
    await expect(next).resolves.toBe("sent")
  })

  it("forgets a key once its work is done", async () => {
    const inOrder = new InOrder()
    await Promise.all([inOrder.run("p1", async () => 1), inOrder.run("p2", async () => 2)])
    await new Promise((resolve) => setImmediate(resolve))
    expect(inOrder.size).toBe(0)
  })
})
