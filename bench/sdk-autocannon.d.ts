// The part of autocannon's API that `npm run bench:sdk` uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    duration: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
  }
  /** The run: a promise of its result that also reports each second's responses. */
  interface Instance extends Promise<Result> {
    on(event: "tick", listener: (tick: { counter: number; bytes: number }) => void): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
