// Horizontal HTML bars for breakdowns (status codes, consumers): label, exact value, and a bar
// scaled to the largest value. Text carries the meaning; colour only repeats it.
import type { ReactNode } from "react";
import styles from "./Charts.module.css";

export interface BarItem {
  readonly key: string;
  readonly label: ReactNode;
  readonly value: number;
  /** A colour token name (e.g. "--danger"); default the accent. */
  readonly color?: string;
}

export interface BarListProps {
  /** Accessible name of the list. */
  readonly label: string;
  readonly items: readonly BarItem[];
  readonly formatValue?: (value: number) => string;
}

export function BarList({
  label,
  items,
  formatValue = (value) => value.toLocaleString("en-US"),
}: BarListProps) {
  const max = Math.max(1, ...items.map((item) => item.value));
  return (
    <ul className={styles.bars} aria-label={label}>
      {items.map((item) => (
        <li key={item.key} className={styles.barRow}>
          <span className={styles.barLabel}>{item.label}</span>
          <span className={styles.barValue}>{formatValue(item.value)}</span>
          <span className={styles.barTrack} aria-hidden="true">
            <span
              className={styles.barFill}
              ref={(node) => {
                if (!node) return;
                node.style.display = "block";
                node.style.width = `${(item.value / max) * 100}%`;
                node.style.background = `var(${item.color ?? "--accent"})`;
              }}
            />
          </span>
        </li>
      ))}
    </ul>
  );
}
