// One contract change (contract-change notifications link here): its class, the rule it
// matched, where in the operation it is, and every consumer it affects with their calls.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { formatCount, MethodBadge } from "../../components/data/parts";
import { QueryCard } from "../../components/data/QueryView";
import { useDataPainted } from "../../lib/page-state";
import { changeQuery } from "./api";
import styles from "./Api.module.css";
import { ClassBadge } from "./ChangesPage";

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
