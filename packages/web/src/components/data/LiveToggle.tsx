// The live switch of an explorer's header: what the page is doing (beating while it refetches
// every few seconds), the switch that puts live mode in the URL, and any extra control (Pause).
import type { ReactNode } from "react";
import { Switch } from "../ui/Switch";
import styles from "./Data.module.css";

export function LiveToggle({
  label,
  state,
  beating,
  checked,
  onChange,
  children,
}: {
  /** What the switch does, for screen readers. */
  label: string;
  /** What the page is doing, as shown next to the switch. */
  state: string;
  beating: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <span className={styles.liveToggle}>
      <span aria-hidden="true" className={beating ? styles.live : undefined}>
        {state}
      </span>
      <Switch label={label} checked={checked} onChange={onChange} />
      {children}
    </span>
  );
}
