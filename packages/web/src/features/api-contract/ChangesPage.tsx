// The change log: every classified change between contract versions, newest first, with the
// consumers it affects; filtered by class, app and environment through the URL.
import type { ContractChange } from "@sightline/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { GitCompare } from "lucide-react";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { formatCount, MethodBadge } from "../../components/data/parts";
import { QueryCard } from "../../components/data/QueryView";
import { AppSelect, EnvironmentSelect } from "../../components/forms/ScopeSelects";
import { SelectField } from "../../components/ui/Field";
import { Badge, EmptyState } from "../../components/ui/Feedback";
import { useDataPainted } from "../../lib/page-state";
import { CHANGES_PAGE_SIZE, changesQuery } from "./api";
import type { ApiSearch } from "./api-search";
import styles from "./Api.module.css";

const route = getRouteApi("/app/projects/$project/api/changes");

export function ClassBadge({ breaking }: { breaking: boolean }) {
  return breaking ? <Badge tone="danger">breaking</Badge> : <Badge tone="info">non-breaking</Badge>;
}

export function consumersText(change: Pick<ContractChange, "consumers" | "consumers_total">): string {
  if (change.consumers_total === 0) return "None";
  const named = change.consumers
    .slice(0, 3)
    .map((consumer) => `${consumer.consumer_name || "anonymous"} (${formatCount(consumer.requests)})`);
  const more = change.consumers_total - named.length;
  return more > 0 ? `${named.join(", ")} +${more}` : named.join(", ");
}

export function ChangesPage() {
  const { project } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const changes = useQuery({
    ...changesQuery(project, {
      app: search.app,
      environment: search.environment,
      breaking: search.breaking === undefined ? undefined : search.breaking === "breaking",
      offset: (page - 1) * CHANGES_PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  useDataPainted(changes.data !== undefined);
  const set = (patch: Partial<ApiSearch>) =>
    void navigate({ to: ".", search: (previous: ApiSearch) => ({ ...previous, ...patch, page: undefined }) });

  return (
    <>
      <div className={styles.pickers} role="group" aria-label="Filters">
        <SelectField
          label="Class"
          value={search.breaking ?? ""}
          onChange={(event) =>
            set({
              breaking: event.target.value === "" ? undefined : (event.target.value as ApiSearch["breaking"]),
            })
          }
        >
          <option value="">All changes</option>
          <option value="breaking">Breaking</option>
          <option value="non-breaking">Non-breaking</option>
        </SelectField>
        <AppSelect
          project={project}
          anyLabel="All apps"
          value={search.app ?? ""}
          onChange={(event) => set({ app: event.target.value || undefined, environment: undefined })}
        />
        <EnvironmentSelect
          project={project}
          app={search.app ?? ""}
          anyLabel="All environments"
          value={search.environment ?? ""}
          onChange={(event) => set({ environment: event.target.value || undefined })}
        />
      </div>
      <QueryCard
        title="Changes"
        query={changes}
        what="the contract changes"
        rows={5}
        empty={{
          when: (data) => data.data.length === 0,
          show: (
            <EmptyState icon={GitCompare} title="No changes">
              When a new version of a contract differs from the previous one, each change is listed here with
              the consumers it affects.
            </EmptyState>
          ),
        }}
      >
        {(data) => (
          <DataTable
            label="Contract changes"
            rows={data.data}
            rowKey={(change) => change.id}
            rowData={(change) => ({ "data-change": change.id })}
            rowLabel={(change) => `Open change: ${change.detail}`}
            onOpen={(change) =>
              void navigate({
                to: "/projects/$project/api/changes/$changeId",
                params: { project, changeId: change.id },
              })
            }
            pager={{ page, pageSize: CHANGES_PAGE_SIZE, total: data.total, what: "changes" }}
            columns={[
              { header: "Class", cell: (change) => <ClassBadge breaking={change.breaking} /> },
              {
                header: "Change",
                cell: (change) => (
                  <>
                    <MethodBadge method={change.method} /> <span className={styles.path}>{change.path}</span>
                    <span className={styles.sub} style={{ display: "block" }}>
                      {change.detail}
                    </span>
                  </>
                ),
              },
              {
                header: "App · environment",
                cell: (change) => `${change.app} · ${change.environment} · v${change.version}`,
              },
              { header: "Consumers affected", cell: consumersText },
              { header: "Detected", cell: (change) => <WhenCell iso={change.created_at} zone={undefined} /> },
            ]}
          />
        )}
      </QueryCard>
    </>
  );
}
