// API keys as a table (name, scope, prefix, created, last used, state) with revoke behind a
// confirmation, and the dialog that creates a key and shows it once.
import type { ApiKeyListItem, CreatedApiKey } from "@sightline/contracts";
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Button } from "../../components/ui/Button";
import { Mono } from "../../components/ui/Code";
import { ConfirmOn, Dialog, DialogActions, SecretShownOnceDialog } from "../../components/ui/Dialog";
import { NameField, WHERE_USED } from "../../components/forms/NameFields";
import { Badge, Notice } from "../../components/ui/Feedback";
import { table } from "../../components/ui/Table";
import { Actions, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { isApiError } from "../../lib/api-client";
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
          {
            header: "Actions",
            hiddenHeader: true,
            cell: (row) => (
              <Actions>
                {row.key.is_revoked ? null : (
                  <Button
                    size="sm"
                    variant="dangerOutline"
                    onClick={() => setRevoking(row)}
                    aria-label={`Revoke key ${row.key.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </Actions>
            ),
          },
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
  const [name, setName] = useState(defaultName);
  const mutation = useMutation({ mutationFn: (keyName: string) => create(keyName) });
  const close = (next: boolean) => {
    if (!next) {
      mutation.reset();
      setName(defaultName);
    }
    onOpenChange(next);
  };
  const error = isApiError(mutation.error) ? mutation.error : undefined;
  if (mutation.data) {
    return (
      <SecretShownOnceDialog
        open={open}
        onOpenChange={close}
        what="API key"
        name={mutation.data.name}
        secret={mutation.data.key}
      />
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create an API key"
      description="Applications send records with it in the X-API-Key header."
      onSubmit={() => mutation.mutate(name.trim())}
      footer={
        <DialogActions onCancel={() => close(false)} busy={mutation.isPending} disabled={name.trim() === ""}>
          Create key
        </DialogActions>
      }
    >
      <NameField
        label="Key name"
        value={name}
        onValue={setName}
        placeholder="production ingest"
        autoFocus
        hint={WHERE_USED}
        error={error?.fieldMessage("/name")}
      />
      {extraFields}
      {error && error.fieldErrors.length === 0 ? (
        <Notice tone={error.code === "limit_reached" ? "warning" : "danger"} role="alert">
          {error.detail}
        </Notice>
      ) : null}
    </Dialog>
  );
}
