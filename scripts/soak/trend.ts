import { median } from "../lib/figures"

/**
 * The soak's trend: a figure's median over the last window of the run against its median over the
 * first window after warm-up. Sixty minutes: minutes 2–12 against 50–60. A run shorter than 32
 * minutes scales the windows: after the warm-up (2 minutes, a fifth of a run shorter than 10), its
 * first third against its last third.
 */
export const WARM_UP_MINUTES = 2
export const WINDOW_MINUTES = 10

export type Windows = { warmUp: number; first: [number, number]; last: [number, number] }

/** The windows, in minutes since the run began (each [from, to)). */
export function trendWindows(minutes: number): Windows {
  const warmUp = Math.min(WARM_UP_MINUTES, minutes / 5)
  const window = Math.min(WINDOW_MINUTES, (minutes - warmUp) / 3)
  return { warmUp, first: [warmUp, warmUp + window], last: [minutes - window, minutes] }
}

export type Trend = { first?: number; last?: number; ratio?: number; samples: [number, number] }

/** One figure's trend over samples taken at `minute` (minutes since the run began). */
export function trendOf<S extends { minute: number }>(samples: S[], minutes: number, pick: (s: S) => number): Trend {
  const { first, last } = trendWindows(minutes)
  const inside = ([from, to]: [number, number]) =>
    samples.filter((s) => s.minute >= from && s.minute < to + 1e-9).map(pick)
  const a = inside(first)
  const b = inside(last)
  const [m1, m2] = [a.length ? median(a) : undefined, b.length ? median(b) : undefined]
  return {
    first: m1,
    last: m2,
    ratio: m1 !== undefined && m2 !== undefined && m1 > 0 ? m2 / m1 : undefined,
    samples: [a.length, b.length],
  }
}
