// The SDK builds the per-request cost benches compare: the bare app, this build, and optionally
// another build (BENCH_SDK_BEFORE = the path of its package.json) measured in the same rounds.

export interface SdkVariant {
  readonly name: string;
  readonly mode: "bare" | "sightline";
  /** The SDK's package.json to load instead of this workspace's build. */
  readonly sdkPackage?: string;
}

/** `before` may list several builds, comma-separated: "sdk-before", "sdk-before-2", … */
export function sdkVariants(before: string | undefined = process.env.BENCH_SDK_BEFORE): SdkVariant[] {
  const others = (before ?? "").split(",").filter((path) => path !== "");
  return [
    { name: "bare", mode: "bare" },
    { name: "sdk", mode: "sightline" },
    ...others.map((sdkPackage, i) => ({
      name: i === 0 ? "sdk-before" : `sdk-before-${i + 1}`,
      mode: "sightline" as const,
      sdkPackage,
    })),
  ];
}
