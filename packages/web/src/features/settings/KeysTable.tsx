// API keys as a table (name, scope, prefix, created, last used, state) with revoke behind a
// confirmation, and the dialog that creates a key and shows it once.
import type { ApiKeyListItem, CreatedApiKey } from "@sightline/contracts";
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Mono } from "../../components/ui/Code";
import { ConfirmOn } from "../../components/ui/Dialog";
import { CreateSecretDialog } from "../../components/forms/CreateSecretDialog";
import { Badge } from "../../components/ui/Feedback";
import { table } from "../../components/ui/Table";
import { revokeColumn, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Settings.module.css";

export interface KeyRow {
  readonly key: ApiKeyListItem;
  /** "Project" or the app's name. */
  readonly scope: string;
  revoke(): Promise<unknown>;
}

export function KeysTable({
  rows,
  onRevoked,
}: {
  rows: readonly KeyRow[];
  onRevoked: (row: KeyRow) => void;
}) {
  const timeZone = useTimeZone();
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const revoke = useMutation({
    mutationFn: (row: KeyRow) => row.revoke(),
    onSuccess: (_data, row) => {
      setRevoking(null);
      onRevoked(row);
    },
  });
  return (
    <div>
      <DataTable
        label="API keys"
        rows={rows}
        rowKey={(row) => row.key.id}
        rowClass={(row) => (row.key.is_revoked ? table.revoked : undefined)}
        columns={[
          { header: "Name", className: styles.keyName, cell: (row) => row.key.name },
          { header: "Scope", cell: (row) => row.scope },
          { header: "Key", cell: (row) => <Mono>{row.key.prefix}…</Mono> },
          { header: "Created", cell: (row) => <WhenCell iso={row.key.created_at} zone={timeZone} /> },
          { header: "Last used", cell: (row) => <WhenCell iso={row.key.last_used_at} zone={timeZone} /> },
          {
            header: "State",
            cell: (row) => (row.key.is_revoked ? <Badge>Revoked</Badge> : <Badge tone="success">Live</Badge>),
          },
          revokeColumn<KeyRow>({
            label: (row) => `Revoke key ${row.key.name}`,
            onRevoke: setRevoking,
            can: (row) => !row.key.is_revoked,
          }),
        ]}
      />
      <ConfirmOn
        target={revoking}
        onClose={() => setRevoking(null)}
        mutation={revoke}
        title={(row) => `Revoke “${row.key.name}”?`}
        description={(row) =>
          `Key ${row.key.prefix}… stops working at once: anything still sending with it gets 401.`
        }
        confirmLabel="Revoke key"
      />
    </div>
  );
}

/** Name → create → the whole key, once, with copy; closing forgets it. */
export function CreateKeyDialog({
  open,
  onOpenChange,
  create,
  extraFields,
  defaultName = "",
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  create: (name: string) => Promise<CreatedApiKey>;
  extraFields?: ReactNode;
  defaultName?: string;
}) {
  return (
    <CreateSecretDialog
      open={open}
      onOpenChange={onOpenChange}
      what="API key"
      title="Create an API key"
      description="Applications send records with it in the X-API-Key header."
      nameLabel="Key name"
      placeholder="production ingest"
      submitLabel="Create key"
      defaultName={defaultName}
      create={create}
      secretOf={(created) => created.key}
    >
      {extraFields}
    </CreateSecretDialog>
  );
}
