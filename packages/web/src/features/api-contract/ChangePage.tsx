// One contract change (contract-change notifications link here): its class, the rule it
// matched, where in the operation it is, every consumer it affects with their calls, and how the
// same place of that version departs from the app's declared document, if it has one.
import type { ContractChange } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { formatCount, MethodBadge } from "../../components/data/parts";
import { QueryCard } from "../../components/data/QueryView";
import { useDataPainted } from "../../lib/page-state";
import { changeQuery, declaredDiffQuery } from "./api";
import styles from "./Api.module.css";
import { ClassBadge, consumersText } from "./ChangesPage";

const route = getRouteApi("/app/projects/$project/api/changes/$changeId");

export function ChangePage() {
  const { project, changeId } = route.useParams();
  const change = useQuery(changeQuery(project, changeId));
  useDataPainted(change.data !== undefined);
  return (
    <>
      <QueryCard title="Change" query={change} what="the change" rows={4}>
        {(data) => (
          <>
            <p>
              <ClassBadge breaking={data.breaking} /> <MethodBadge method={data.method} />{" "}
              <span className={styles.path}>{data.path}</span>
            </p>
            <p>{data.detail}</p>
            <dl className={styles.facts}>
              <dt>Rule</dt>
              <dd>
                <code>{data.kind}</code>
              </dd>
              <dt>Where</dt>
              <dd>
                {data.location}
                {data.status !== null ? ` ${data.status}` : ""}
                {data.field !== null ? (
                  <>
                    {" "}
                    <code>{data.field}</code>
                  </>
                ) : null}
              </dd>
              <dt>App</dt>
              <dd>
                <Link
                  to="/projects/$project/api"
                  params={{ project }}
                  search={{ app: data.app, environment: data.environment }}
                >
                  {data.app} · {data.environment}
                </Link>{" "}
                (version {data.version})
              </dd>
              <dt>Detected</dt>
              <dd>
                <WhenCell iso={data.created_at} zone={undefined} />
              </dd>
            </dl>
          </>
        )}
      </QueryCard>
      {change.data === undefined ? null : <AgainstDeclared project={project} change={change.data} />}
      <QueryCard title="Consumers affected" query={change} what="the consumers" rows={3}>
        {(data) =>
          data.consumers_total === 0 ? (
            <p className={styles.sub}>No consumer called this in the last {data.window_days} days.</p>
          ) : (
            <>
              <p className={styles.sub}>
                {formatCount(data.consumers_total)} consumer{data.consumers_total === 1 ? "" : "s"} in the
                last {data.window_days} days
                {data.consumers_total > data.consumers.length
                  ? `, the ${data.consumers.length} with most calls shown`
                  : ""}
                .
              </p>
              <DataTable
                label="Consumers affected"
                rows={data.consumers}
                rowKey={(consumer) => consumer.consumer_id || "(anonymous)"}
                columns={[
                  {
                    header: "Consumer",
                    cell: (consumer) =>
                      consumer.consumer_id === "" ? (
                        <span className={styles.sub}>Calls without a consumer</span>
                      ) : (
                        <Link
                          to="/projects/$project/consumers/$consumer"
                          params={{ project, consumer: consumer.consumer_id }}
                        >
                          {consumer.consumer_name || consumer.consumer_id}
                        </Link>
                      ),
                  },
                  { header: "Requests", numeric: true, cell: (consumer) => formatCount(consumer.requests) },
                ]}
              />
            </>
          )
        }
      </QueryCard>
    </>
  );
}

/** The declared document's view of the change's place in the same version. */
function AgainstDeclared({ project, change }: { project: string; change: ContractChange }) {
  const scope = { app: change.app, environment: change.environment };
  const diff = useQuery(declaredDiffQuery(project, scope, change.version));
  return (
    <QueryCard title="Against the declared document" query={diff} what="the declared document" rows={2}>
      {(data) => {
        if (data === null) {
          return (
            <p className={styles.sub}>
              This app has no declared document to compare with.{" "}
              <Link to="/projects/$project/api/report" params={{ project }} search={scope}>
                Declared vs observed
              </Link>
            </p>
          );
        }
        // The operation undeclared, or a difference at the change's own status and field.
        const here = data.differences.filter(
          (difference) =>
            difference.method === change.method &&
            difference.path === change.path &&
            (difference.location === "operation" ||
              change.location === "operation" ||
              (difference.status === change.status &&
                (change.field === null || difference.field === change.field))),
        );
        return (
          <>
            {here.length === 0 ? (
              <p className={styles.sub}>
                In version {data.version} this place keeps to the declared document.
              </p>
            ) : (
              <ul className={styles.schema}>
                {here.map((difference) => (
                  <li key={`${difference.kind} ${difference.status ?? ""} ${difference.field ?? ""}`}>
                    <ClassBadge breaking={difference.breaking} /> {difference.detail} —{" "}
                    {consumersText(difference)}
                  </li>
                ))}
              </ul>
            )}
            <p className={styles.sub}>
              <Link to="/projects/$project/api/report" params={{ project }} search={scope}>
                All {formatCount(data.total)} difference{data.total === 1 ? "" : "s"} from the declared
                document
              </Link>
            </p>
          </>
        );
      }}
    </QueryCard>
  );
}
