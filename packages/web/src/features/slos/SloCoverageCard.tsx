// The SLOs covering one endpoint or one consumer, with attainment, budget left and state: the
// card on the endpoint and consumer pages (nothing when no SLO covers it).
import type { SlosQuery } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { QueryView } from "../../components/data/QueryView";
import { Card } from "../../components/ui/Surface";
import { slosQuery } from "./api";
import { MeetingBadge, SloLink, SloStateBadge } from "./SloParts";
import { formatBudget, formatPercent, objectiveText } from "./slo-text";
import text from "../../components/data/Text.module.css";
import styles from "./Slos.module.css";

export function SloCoverageCard({ project, covering }: { project: string; covering: SlosQuery }) {
  const slos = useQuery(slosQuery(project, covering));
  if (slos.isSuccess && slos.data.length === 0) return null;
  return (
    <Card title="Service levels">
      <QueryView query={slos} what="the SLOs covering this" rows={2}>
        {(rows) => (
          <ul className={styles.list} aria-label="SLOs covering this">
            {rows.map(({ slo, status }) => (
              <li key={slo.id} className={styles.item}>
                <SloLink project={project} slo={slo} />
                <span className={text.sub}>{objectiveText(slo)}</span>
                <span className={text.numeric}>
                  {formatPercent(status?.attainment ?? null)} · budget left{" "}
                  {formatBudget(status?.error_budget.remaining ?? null)}
                </span>
                <SloStateBadge state={status?.state ?? slo.state} />
                {status ? <MeetingBadge meeting={status.meeting} /> : null}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Card>
  );
}
