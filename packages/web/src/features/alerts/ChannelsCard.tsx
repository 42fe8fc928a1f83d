// The project's notification channels: e-mail, signed webhook (its secret shown once, on create
// or rotation) and Slack; create, edit and delete for those allowed to, a list for everyone.
import type {
  Channel,
  ChannelType,
  ChannelWithSecret,
  CreateChannelBody,
  UpdateChannelBody,
} from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button, IconButton } from "../../components/ui/Button";
import { SecretValue } from "../../components/ui/Code";
import { ConfirmOn, Dialog, DialogActions } from "../../components/ui/Dialog";
import { Checkbox, SelectField, TextAreaField, TextField } from "../../components/ui/Field";
import { Badge, EmptyState, ErrorPanel, FailureNotice, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { Actions } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { useToast } from "../../components/ui/Toast";
import { isApiError } from "../../lib/api-client";
import { alertKeys, alertsApi, channelsQuery } from "./api";
import styles from "./Alerts.module.css";
import { NameField } from "../../components/forms/NameFields";
import { useConfirmedDelete } from "../../components/data/useConfirmedDelete";

const TYPE_LABELS: Record<ChannelType, string> = { email: "E-mail", webhook: "Webhook", slack: "Slack" };

export function channelTarget(channel: Channel): string {
  if (channel.type !== "email") return channel.url ?? "";
  const people = [...channel.addresses];
  if (channel.all_members) people.unshift("all project members");
  return people.join(", ");
}

export function ChannelsCard({ project, canWrite }: { project: string; canWrite: boolean }) {
  const channels = useQuery(channelsQuery(project));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Channel | "new" | null>(null);
  const deletion = useConfirmedDelete({
    remove: (channel: Channel) => alertsApi.deleteChannel(project, channel.id),
    stale: alertKeys.all(project),
    deleted: (channel) => `Channel “${channel.name}” deleted`,
  });

  return (
    <Card
      title="Notification channels"
      labelledBy="channels-title"
      description="Where firing and resolved alerts are sent. A rule notifies the channels chosen on it."
      actions={
        canWrite ? (
          <Button onClick={() => setEditing("new")}>
            <Plus size={16} aria-hidden="true" />
            New channel
          </Button>
        ) : undefined
      }
    >
      {channels.isPending ? (
        <SkeletonRows rows={2} label="Loading channels" />
      ) : channels.isError ? (
        <ErrorPanel what="the channels" error={channels.error} onRetry={() => void channels.refetch()} />
      ) : channels.data.length === 0 ? (
        <EmptyState icon={BellRing} title="No channels yet">
          {canWrite
            ? "Add an e-mail list, a webhook or a Slack incoming webhook, then choose it on a rule."
            : "An admin or owner of the project adds them."}
        </EmptyState>
      ) : (
        <DataTable
          label="Channels"
          rows={channels.data}
          rowKey={(channel) => channel.id}
          columns={[
            { header: "Name", className: table.strong, cell: (channel) => channel.name },
            { header: "Type", cell: (channel) => <Badge>{TYPE_LABELS[channel.type]}</Badge> },
            {
              header: "Sends to",
              className: styles.channelTarget,
              cell: (channel) => channelTarget(channel),
            },
            ...(canWrite
              ? [
                  {
                    header: "Actions",
                    hiddenHeader: true,
                    cell: (channel: (typeof channels.data)[number]) => (
                      <Actions>
                        <IconButton
                          label={`Edit channel ${channel.name}`}
                          icon={Pencil}
                          onClick={() => setEditing(channel)}
                        />
                        <IconButton
                          label={`Delete channel ${channel.name}`}
                          icon={Trash2}
                          onClick={() => deletion.ask(channel)}
                        />
                      </Actions>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {editing !== null ? (
        <ChannelDialog
          project={project}
          channel={editing === "new" ? null : editing}
          onClose={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: alertKeys.channels(project) });
          }}
        />
      ) : null}
      <ConfirmOn
        {...deletion.confirm}
        title={(channel) => `Delete “${channel.name}”?`}
        description={() =>
          "Rules stop notifying it at once, and notifications not yet sent to it are dropped."
        }
        confirmLabel="Delete channel"
      />
    </Card>
  );
}

interface ChannelDraft {
  name: string;
  type: ChannelType;
  addresses: string;
  all_members: boolean;
  url: string;
}

function addressesOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/** Create or edit one channel; a webhook's new secret is shown here once, then forgotten. */
function ChannelDialog({
  project,
  channel,
  onClose,
}: {
  project: string;
  channel: Channel | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const [draft, setDraft] = useState<ChannelDraft>({
    name: channel?.name ?? "",
    type: channel?.type ?? "webhook",
    addresses: channel?.addresses.join("\n") ?? "",
    all_members: channel?.all_members ?? false,
    // A Slack URL comes back masked: it is only sent again when retyped.
    url: channel?.type === "webhook" ? (channel.url ?? "") : "",
  });
  const set = (patch: Partial<ChannelDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const save = useMutation({
    mutationFn: (rotate: boolean): Promise<ChannelWithSecret> => {
      if (channel === null) {
        const body: CreateChannelBody =
          draft.type === "email"
            ? {
                name: draft.name.trim(),
                type: "email",
                addresses: addressesOf(draft.addresses),
                all_members: draft.all_members,
              }
            : { name: draft.name.trim(), type: draft.type, url: draft.url.trim() };
        return alertsApi.createChannel(project, body);
      }
      const body: UpdateChannelBody = rotate
        ? { rotate_secret: true }
        : channel.type === "email"
          ? {
              name: draft.name.trim(),
              addresses: addressesOf(draft.addresses),
              all_members: draft.all_members,
            }
          : { name: draft.name.trim(), ...(draft.url.trim() !== "" ? { url: draft.url.trim() } : {}) };
      return alertsApi.updateChannel(project, channel.id, body);
    },
    onSuccess: (saved, rotate) => {
      if (saved.secret === undefined) {
        toast(channel === null ? `Channel “${saved.name}” created` : `Channel “${saved.name}” saved`);
        onClose();
      } else if (rotate) {
        toast(`New secret for “${saved.name}”`);
      }
    },
  });
  const error = isApiError(save.error) ? save.error : undefined;

  if (save.data?.secret !== undefined) {
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={channel === null ? `Channel “${save.data.name}” created` : "The new signing secret"}
        description="Copy the signing secret now: Sightline shows it this once. Your receiver checks X-Sightline-Signature with it."
        footer={
          <Button variant="primary" onClick={onClose}>
            I've stored it
          </Button>
        }
      >
        <SecretValue value={save.data.secret} label={`Signing secret of ${save.data.name}`} />
      </Dialog>
    );
  }

  const type = channel?.type ?? draft.type;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={channel === null ? "New notification channel" : `Edit “${channel.name}”`}
      onSubmit={() => save.mutate(false)}
      footer={
        <DialogActions
          extra={
            channel?.type === "webhook" ? (
              <Button onClick={() => save.mutate(true)} busy={save.isPending && save.variables}>
                Rotate secret
              </Button>
            ) : null
          }
          onCancel={onClose}
          busy={save.isPending && !save.variables}
          disabled={draft.name.trim() === ""}
        >
          {channel === null ? "Create channel" : "Save channel"}
        </DialogActions>
      }
    >
      <NameField
        label="Channel name"
        value={draft.name}
        onValue={(name) => set({ name })}
        placeholder="On-call"
        autoFocus
        error={error?.fieldMessage("/name")}
      />
      {channel === null ? (
        <SelectField
          label="Type"
          value={draft.type}
          onChange={(event) => set({ type: event.target.value as ChannelType })}
        >
          <option value="webhook">Webhook (signed JSON)</option>
          <option value="slack">Slack incoming webhook</option>
          <option value="email">E-mail</option>
        </SelectField>
      ) : null}
      {type === "email" ? (
        <>
          <TextAreaField
            label="E-mail addresses"
            optional={draft.all_members}
            value={draft.addresses}
            onChange={(event) => set({ addresses: event.target.value })}
            rows={3}
            placeholder="oncall@example.com"
            hint="One per line, up to 20."
            error={error?.fieldErrors.find((field) => field.pointer.startsWith("/addresses"))?.message}
          />
          <Checkbox
            label="Also every member of the project, when it is sent"
            checked={draft.all_members}
            onChange={(event) => set({ all_members: event.target.checked })}
          />
        </>
      ) : (
        <TextField
          label={type === "slack" ? "Slack webhook URL" : "Webhook URL"}
          type="url"
          value={draft.url}
          onChange={(event) => set({ url: event.target.value })}
          required={channel === null}
          placeholder={
            type === "slack"
              ? channel === null
                ? "https://hooks.slack.com/services/…"
                : "Unchanged unless you paste a new one"
              : "https://hooks.example.com/sightline"
          }
          hint={
            type === "slack"
              ? channel === null
                ? "Slack → Apps → Incoming Webhooks. Shown masked once saved."
                : `Now ${channel.url ?? "—"}`
              : "http(s). Each POST is signed with a secret shown once, after creating."
          }
          error={error?.fieldMessage("/url")}
        />
      )}
      <FailureNotice error={save.error} fieldsInline />
    </Dialog>
  );
}
