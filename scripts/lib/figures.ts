/** How the bench and the soak write their figures: quantiles, and numbers as BENCHMARKS.md shows them. */

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
export const median = (values: number[]) => quantile(values, 0.5)
export const ms = (value: number) => `${value.toFixed(0)} ms`
export const ratio = (value: number) => `${value.toFixed(2)}×`
export const count = (n: number) => n.toLocaleString("en-US")
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint()
  const value = await work()
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 }
}
