// The live switch of an explorer's header: what the page is doing (beating while it refetches
// every few seconds), the switch that puts live mode in the URL (back to page 1), and any extra
// control (Pause).
import type { ReactNode } from "react";
import { useSetSearch, useTrafficSearch } from "../../lib/page-state";
import { Switch } from "../ui/Switch";
import styles from "./Data.module.css";

export interface LiveToggleProps {
  /** What the switch does, for screen readers. */
  label: string;
  /** What the page is doing, as shown next to the switch. */
  state: string;
  beating: boolean;
  /** Runs as the switch is flipped, before the URL changes. */
  onSwitch?: () => void;
  children?: ReactNode;
}

export function LiveToggle({ label, state, beating, onSwitch, children }: LiveToggleProps) {
  const search = useTrafficSearch();
  const setSearch = useSetSearch();
  return (
    <span className={styles.liveToggle}>
      <span aria-hidden="true" className={beating ? styles.live : undefined}>
        {state}
      </span>
      <Switch
        label={label}
        checked={search.live === true}
        onChange={(checked) => {
          onSwitch?.();
          setSearch({ live: checked ? true : undefined, page: undefined }, { replace: true });
        }}
      />
      {children}
    </span>
  );
}
