/** The reconciliation ticks each process ran, skipped, and how many overlapped another tick. */
export type Ticks = { ran: number[]; skipped: number; overlapping: number; longestMs: number }

/**
 * The reconciliation ticks each process logged (the job's debug line with its span), and how many
 * of them overlapped another tick, of any process.
 */
export function countTicks(logs: string[]): Ticks {
  const spans: Array<[number, number]> = []
  const ran = logs.map((log) => {
    // "reconciliation tick <start> → <end>, heap <bytes>" (older lines end at <end>)
    const own = [...log.matchAll(/reconciliation tick (\S+) → ([^\s,]+)/g)].map((m): [number, number] => [
      Date.parse(m[1]),
      Date.parse(m[2]),
    ])
    spans.push(...own)
    return own.length
  })
  spans.sort((a, b) => a[0] - b[0])
  let overlapping = 0
  let latestEnd = -Infinity
  for (const [start, end] of spans) {
    if (start < latestEnd) overlapping++
    latestEnd = Math.max(latestEnd, end)
  }
  const skipped = logs.reduce((n, log) => n + (log.match(/reconciliation tick skipped/g)?.length ?? 0), 0)
  const longestMs = spans.reduce((n, [start, end]) => Math.max(n, end - start), 0)
  return { ran, skipped, overlapping, longestMs }
}
