// A person's picture, or their initials when they have none; and the tile that stands for a
// project or an app (its initials or icon on the accent tint).
import type { ReactNode } from "react";
import styles from "./Avatar.module.css";

export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s._@-]+/)
    .filter(Boolean);
  const letters =
    words.length >= 2 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : (words[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

const SIZES = { sm: 28, md: 36, lg: 72 } as const;

export function Avatar({
  name,
  picture,
  size = "sm",
}: {
  name: string;
  picture: string;
  size?: keyof typeof SIZES;
}) {
  const px = SIZES[size];
  return (
    <span
      className={styles.avatar}
      // React applies style through the CSSOM, which the CSP's style-src 'self' allows.
      style={{ width: px, height: px, fontSize: Math.round(px * 0.38) }}
      aria-hidden="true"
    >
      {picture ? <img src={picture} alt="" /> : initialsOf(name)}
    </span>
  );
}

const TILES = {
  sm: { px: 26, radius: 7, font: 12 },
  md: { px: 30, radius: 8, font: 12 },
  lg: { px: 36, radius: 10, font: 13 },
} as const;

export function Monogram({ size = "sm", children }: { size?: keyof typeof TILES; children: ReactNode }) {
  const { px, radius, font } = TILES[size];
  return (
    <span
      className={styles.monogram}
      style={{ width: px, height: px, borderRadius: radius, fontSize: font }}
      aria-hidden="true"
    >
      {children}
    </span>
  );
}
