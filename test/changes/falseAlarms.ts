import { changeBetween, wilsonInterval } from '../../src/visibility/metrics/wilson.js';

/** The binomial probabilities of 0..n successes at rate p. */
function binomial(n: number, p: number): number[] {
  const probabilities: number[] = [];
  let logChoose = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    const logP = logChoose + (k === 0 ? 0 : k * Math.log(p)) + (k === n ? 0 : (n - k) * Math.log(1 - p));
    probabilities.push(p === 0 ? (k === 0 ? 1 : 0) : p === 1 ? (k === n ? 1 : 0) : Math.exp(logP));
  }
  return probabilities;
}

/**
 * The chance that two runs of n answers each, at the same true rate p, give 95 % Wilson intervals that do not overlap
 * (a rise or a fall found where nothing moved): the sum over both counts of their binomial probabilities where
 * changeBetween says up or down. Exact, with the detectors' own interval and comparison.
 */
export function falseAlarmRate(n: number, p: number): number {
  const probabilities = binomial(n, p);
  const intervals = probabilities.map((_, k) => wilsonInterval(k, n));
  let rate = 0;
  for (let a = 0; a <= n; a++) {
    for (let b = 0; b <= n; b++) {
      const direction = changeBetween(intervals[a]!, intervals[b]!);
      if (direction === 'up' || direction === 'down') rate += probabilities[a]! * probabilities[b]!;
    }
  }
  return rate;
}
