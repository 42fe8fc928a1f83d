// The keys that may send records for this app only.
import type { App as AppRecord } from "@sightline/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/Button";
import { ErrorPanel, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { appKeysQuery } from "../../lib/queries";
import { appsApi } from "../../lib/resources-api";
import { CreateKeyDialog, KeysTable } from "./KeysTable";
import styles from "./Settings.module.css";

export function AppKeysCard({ project, app }: { project: string; app: AppRecord }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const appKeys = useQuery(appKeysQuery(project, app.slug));
  const [creating, setCreating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["projects", project] });
  return (
    <Card
      title="App keys"
      description={`Keys that may send records for ${app.name} only. Project-wide keys are under API keys.`}
      actions={
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus size={14} aria-hidden="true" />
          Create app key
        </Button>
      }
    >
      {appKeys.isPending ? (
        <SkeletonRows rows={2} label="Loading app keys" />
      ) : appKeys.isError ? (
        <ErrorPanel what="the app's keys" error={appKeys.error} onRetry={() => void refresh()} />
      ) : appKeys.data.length === 0 ? (
        <p className={styles.dangerMeta}>No keys for this app yet.</p>
      ) : (
        <KeysTable
          rows={appKeys.data.map((key) => ({
            key,
            scope: app.name,
            revoke: () => appsApi.revokeKey(project, app.slug, key.id),
          }))}
          onRevoked={(row) => {
            toast(`Key “${row.key.name}” revoked`);
            void refresh();
          }}
        />
      )}
      <CreateKeyDialog
        open={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) void refresh();
        }}
        defaultName={`${app.name} ingest`}
        create={(name) => appsApi.createKey(project, app.slug, name)}
      />
    </Card>
  );
}
