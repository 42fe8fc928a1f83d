// The Retention section of project settings: how many days requests, logs, spans and the
// analytics rollups are kept (owners and admins change them within the server's maxima; everyone
// else reads them).
import type { ProjectRetention, RetentionKind, UpdateProjectRetentionBody } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { TextField } from "../../components/ui/Field";
import { loadingOrFailed } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { retentionKey, retentionQuery, updateRetention } from "./retention-api";
import styles from "./Settings.module.css";
import { SettingsForm } from "./SettingsForm";
import { useSettingsSave } from "./useSettingsSave";

const KINDS: ReadonlyArray<{ kind: RetentionKind; label: string; what: string }> = [
  { kind: "requests", label: "Requests", what: "request records, with their payloads and headers" },
  { kind: "logs", label: "Logs", what: "log records" },
  { kind: "spans", label: "Spans", what: "trace spans" },
  {
    kind: "rollups",
    label: "Analytics",
    what: "the hourly and daily figures of the overview, errors, endpoints and consumers",
  },
];

const TITLE = "Retention";
const DESCRIPTION =
  "How many days raw records and analytics are kept. Changes apply to what is stored from now on; lists and " +
  "analytics stop at the new days at once. Analytics keep working after raw records expire.";

export function RetentionCard({ project, canEdit }: { project: string; canEdit: boolean }) {
  const retention = useQuery(retentionQuery(project));
  const notLoaded = loadingOrFailed(retention, { title: TITLE, what: "the retention", rows: 4 });
  if (retention.data === undefined) return notLoaded;
  const stored = retention.data;
  // Keyed by the stored values: a saved change resets the form to what the server kept.
  const version = KINDS.map(({ kind }) => stored[`${kind}_days`]).join("-");
  return <RetentionForm key={version} project={project} retention={stored} canEdit={canEdit} />;
}

function RetentionForm({
  project,
  retention,
  canEdit,
}: {
  project: string;
  retention: ProjectRetention;
  canEdit: boolean;
}) {
  const [days, setDays] = useState<Record<RetentionKind, string>>({
    requests: String(retention.requests_days),
    logs: String(retention.logs_days),
    spans: String(retention.spans_days),
    rollups: String(retention.rollups_days),
  });
  const { save, error } = useSettingsSave({
    request: (body: UpdateProjectRetentionBody) => updateRetention(project, body),
    item: retentionKey(project),
    saved: "Retention saved",
  });
  const changed = KINDS.filter(({ kind }) => days[kind].trim() !== String(retention[`${kind}_days`]));
  const submit = () => {
    const body: UpdateProjectRetentionBody = {};
    for (const { kind } of changed) body[`${kind}_days`] = Number(days[kind]);
    save.mutate(body);
  };
  return (
    <Card title={TITLE} description={DESCRIPTION}>
      <SettingsForm
        onSubmit={submit}
        canEdit={canEdit}
        save={save}
        disabled={changed.length === 0}
        saveLabel="Save retention"
        readOnly={<span className={styles.dangerMeta}>Owners and admins change the retention.</span>}
      >
        <div className={styles.retentionGrid}>
          {KINDS.map(({ kind, label, what }) => (
            <TextField
              key={kind}
              label={`${label} (days)`}
              type="number"
              inputMode="numeric"
              min={1}
              max={retention.max[`${kind}_days`]}
              step={1}
              required
              value={days[kind]}
              onChange={(event) => setDays((current) => ({ ...current, [kind]: event.target.value }))}
              hint={`Keeps ${what}; at most ${retention.max[`${kind}_days`]} on this server.`}
              error={error?.fieldMessage(`/${kind}_days`)}
            />
          ))}
        </div>
      </SettingsForm>
    </Card>
  );
}
