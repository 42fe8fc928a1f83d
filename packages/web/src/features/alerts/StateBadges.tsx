// A rule's state as badges: firing, pending or OK, plus muted or disabled.
import type { AlertRule } from "@sightline/contracts";
import { Badge, type Tone } from "../../components/ui/Feedback";
import { type StateLabel, stateBadges } from "./rule-text";
import styles from "./Alerts.module.css";

const TONES: Record<StateLabel, Tone | undefined> = {
  Firing: "danger",
  Pending: "warning",
  OK: "success",
  Muted: "info",
  Disabled: undefined,
};

export function StateBadges({ rule }: { rule: Pick<AlertRule, "state" | "enabled" | "muted_until"> }) {
  return (
    <span className={styles.badges} data-state={rule.enabled ? rule.state : "disabled"}>
      {stateBadges(rule).map((label) => (
        <Badge key={label} tone={TONES[label]}>
          {label}
        </Badge>
      ))}
    </span>
  );
}
