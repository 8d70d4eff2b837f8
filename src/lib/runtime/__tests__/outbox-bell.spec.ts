import { onOutboxRing, outboxListeners, ringOutbox } from "../outbox-bell"

describe("the outbox bell", () => {
  it("rings every listener, and holds none once each has stopped listening", () => {
    const before = outboxListeners()
    const heard: number[] = []
    const stops = [1, 2, 3].map((n) => onOutboxRing(() => heard.push(n)))
    expect(outboxListeners()).toBe(before + 3)
    ringOutbox()
    expect(heard).toEqual([1, 2, 3])
    stops.forEach((stop) => stop())
    expect(outboxListeners()).toBe(before)
    ringOutbox()
    expect(heard).toHaveLength(3)
  })
})
