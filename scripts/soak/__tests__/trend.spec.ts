import { trendOf, trendWindows } from "../trend"

describe("the soak's trend windows", () => {
  it.each([
    // minutes, warm-up, first window, last window
    [60, 2, [2, 12], [50, 60]],
    [32, 2, [2, 12], [22, 32]],
    [22, 2, [2, 2 + 20 / 3], [22 - 20 / 3, 22]],
    [10, 2, [2, 14 / 3], [22 / 3, 10]],
    [3, 0.6, [0.6, 1.4], [2.2, 3]],
  ])("a %i-minute run: warm-up %d, first %j, last %j", (minutes, warmUp, first, last) => {
    const windows = trendWindows(minutes)
    expect(windows.warmUp).toBeCloseTo(warmUp)
    expect(windows.first[0]).toBeCloseTo(first[0])
    expect(windows.first[1]).toBeCloseTo(first[1])
    expect(windows.last[0]).toBeCloseTo(last[0])
    expect(windows.last[1]).toBeCloseTo(last[1])
  })

  it("compares the medians of the samples inside each window, the warm-up left out", () => {
    // one sample a minute of an hour: a heap that grows 1 MB a minute from 100 MB, with a spike in warm-up
    const samples = Array.from({ length: 60 }, (_, i) => ({ minute: i + 1, heap: i === 0 ? 999 : 100 + i }))
    const trend = trendOf(samples, 60, (s) => s.heap)
    // minutes 2..12 (100+1 … 100+11) and 50..60 (100+49 … 100+59)
    expect(trend).toEqual({ first: 106, last: 154, ratio: 154 / 106, samples: [11, 11] })
  })

  it("has no ratio when a window has no sample", () => {
    expect(trendOf([{ minute: 1 }], 60, () => 1)).toEqual({
      first: undefined,
      last: undefined,
      ratio: undefined,
      samples: [0, 0],
    })
  })
})
