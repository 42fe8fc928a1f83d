// The SDK builds the per-request cost benches compare: the bare app, this build, and optionally
// another build (BENCH_SDK_BEFORE = the path of its package.json) measured in the same rounds.

export interface SdkVariant {
  readonly name: string;
  readonly mode: "bare" | "sightline";
  /** The SDK's package.json to load instead of this workspace's build. */
  readonly sdkPackage?: string;
}

export function sdkVariants(before: string | undefined = process.env.BENCH_SDK_BEFORE): SdkVariant[] {
  return [
    { name: "bare", mode: "bare" },
    { name: "sdk", mode: "sightline" },
    ...(before ? [{ name: "sdk-before", mode: "sightline" as const, sdkPackage: before }] : []),
  ];
}
