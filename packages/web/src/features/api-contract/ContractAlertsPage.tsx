// Contract-change alert rules: which new contract versions (breaking only, or all) of which app
// and environment notify which channels. Admins create and delete them; everyone reads.
import type { ContractAlertRule, ContractAlertSeverity } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { BellRing, Trash2 } from "lucide-react";
import { useState } from "react";
import { Actions } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { QueryCard } from "../../components/data/QueryView";
import { Button } from "../../components/ui/Button";
import { ConfirmOn } from "../../components/ui/Dialog";
import { ChannelChecks } from "../../components/forms/ChannelChecks";
import { NameField } from "../../components/forms/NameFields";
import { AppSelect } from "../../components/forms/ScopeSelects";
import { SelectField, TextField } from "../../components/ui/Field";
import { EmptyState, FailureNotice, ReadOnlyNotice } from "../../components/ui/Feedback";
import { Card, SubmitRow } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { useDataPainted } from "../../lib/page-state";
import { channelsQuery } from "../alerts";
import { contractApi, contractKeys, contractRulesQuery } from "./api";
import styles from "./Api.module.css";
import { useConfirmedDelete } from "../../components/data/useConfirmedDelete";

const route = getRouteApi("/app/projects/$project/api/alerts");

export function ContractAlertsPage() {
  const { project } = route.useParams();
  const canWrite = useProjectAccess(project).can("contract:write");
  const rules = useQuery(contractRulesQuery(project));
  const channels = useQuery(channelsQuery(project));
  const deletion = useConfirmedDelete({
    remove: (rule: ContractAlertRule) => contractApi.deleteRule(project, rule.id),
    stale: contractKeys.rules(project),
    deleted: (rule) => `Rule “${rule.name}” deleted`,
  });
  useDataPainted(rules.data !== undefined);
  const channelName = (id: string) =>
    channels.data?.find((channel) => channel.id === id)?.name ?? "deleted channel";

  return (
    <>
      <ReadOnlyNotice canWrite={canWrite}>
        Admins and owners of the project create and delete contract-change rules.
      </ReadOnlyNotice>
      <QueryCard
        title="Contract-change rules"
        query={rules}
        what="the contract-change rules"
        rows={3}
        empty={{
          when: (data) => data.length === 0,
          show: (
            <EmptyState icon={BellRing} title="No contract-change rules">
              A rule notifies its channels when a new version of a contract has a breaking change (or any
              change), with a link to the change and the consumers it affects.
            </EmptyState>
          ),
        }}
      >
        {(data) => (
          <DataTable
            label="Contract-change rules"
            rows={data}
            rowKey={(rule) => rule.id}
            columns={[
              { header: "Rule", cell: (rule) => rule.name },
              { header: "App", cell: (rule) => rule.app ?? "Every app" },
              { header: "Environment", cell: (rule) => rule.environment ?? "Every environment" },
              {
                header: "Notifies on",
                cell: (rule) => (rule.severity === "breaking" ? "Breaking changes" : "Every change"),
              },
              { header: "Channels", cell: (rule) => rule.channel_ids.map(channelName).join(", ") },
              ...(canWrite
                ? [
                    {
                      header: "Actions",
                      hiddenHeader: true,
                      cell: (rule: ContractAlertRule) => (
                        <Actions>
                          <Button
                            variant="ghost"
                            aria-label={`Delete rule ${rule.name}`}
                            onClick={() => deletion.ask(rule)}
                          >
                            <Trash2 size={16} aria-hidden="true" />
                          </Button>
                        </Actions>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </QueryCard>
      {canWrite ? <NewRuleCard project={project} /> : null}
      <ConfirmOn
        {...deletion.confirm}
        title={(rule) => `Delete the rule “${rule.name}”?`}
        confirmLabel="Delete rule"
      />
    </>
  );
}

function NewRuleCard({ project }: { project: string }) {
  const channels = useQuery(channelsQuery(project));
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("Breaking API changes");
  const [app, setApp] = useState("");
  const [environment, setEnvironment] = useState("");
  const [severity, setSeverity] = useState<ContractAlertSeverity>("breaking");
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const create = useMutation({
    mutationFn: () =>
      contractApi.createRule(project, {
        name,
        severity,
        channel_ids: [...chosen],
        ...(app !== "" ? { app } : {}),
        ...(environment.trim() !== "" ? { environment: environment.trim() } : {}),
      }),
    onSuccess: (rule) => {
      toast(`Rule “${rule.name}” created`);
      setChosen(new Set());
      void queryClient.invalidateQueries({ queryKey: contractKeys.rules(project) });
    },
  });
  return (
    <Card title="New contract-change rule" labelledBy="new-contract-rule-title">
      <form
        className={styles.layout}
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        {/* A refusal shows under the form, as a notice. */}
        <NameField label="Name" value={name} onValue={setName} error={undefined} />
        <div className={styles.pickers}>
          <AppSelect
            project={project}
            anyLabel="Every app"
            value={app}
            onChange={(event) => setApp(event.target.value)}
          />
          <TextField
            label="Environment"
            optional
            placeholder="Every environment"
            value={environment}
            maxLength={100}
            onChange={(event) => setEnvironment(event.target.value)}
          />
          <SelectField
            label="Notify on"
            value={severity}
            onChange={(event) => setSeverity(event.target.value as ContractAlertSeverity)}
          >
            <option value="breaking">Breaking changes</option>
            <option value="all">Every change</option>
          </SelectField>
        </div>
        <fieldset className={styles.layout}>
          <legend className={styles.partTitle}>Channels</legend>
          <ChannelChecks
            channels={channels.data}
            selected={[...chosen]}
            onChange={(ids) => setChosen(new Set(ids))}
            label={(channel) => `${channel.name} (${channel.type})`}
            none={
              <>
                No channel yet:{" "}
                <Link to="/projects/$project/alerts" params={{ project }}>
                  add one on the Alerts page
                </Link>
                .
              </>
            }
          />
        </fieldset>
        <FailureNotice error={create.error} />
        <SubmitRow busy={create.isPending} disabled={chosen.size === 0 || name.trim() === ""}>
          Create rule
        </SubmitRow>
      </form>
    </Card>
  );
}
