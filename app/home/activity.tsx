/**
 * /activity (spec 01 §2.1): the platform's events (`GET /api/home/getActivityList`, configured by ACTIVITIES;
 * decision 027), latest first, each with its dates and whether it is upcoming, running or over (Beijing days); the
 * empty state 暂无活动 when none is configured. Plain page: works without JavaScript.
 */
import type { Route } from './+types/activity';
import { activityStatus, HomeMsg } from '../../contract/home-codes.ts';
import { beijingToday, loadActivities } from './home-content.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    activities: await loadActivities(context, new URL(request.url).pathname),
    today: beijingToday(),
  };
}

export const meta: Route.MetaFunction = () => [{ title: '活动 - 存证云' }];

export default function ActivityPage({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { activities, today } = loaderData;
  return (
    <section className="page narrow">
      <h1>活动</h1>
      {activities.length === 0 ? (
        <p className="empty" role="status">
          {HomeMsg.noActivities}
        </p>
      ) : (
        <div>
          {activities.map((a) => (
            <div key={`${a.startAt}-${a.title}`} className="card">
              <h2>
                {a.url ? (
                  <a href={appUrl(a.url)} rel="noopener noreferrer">
                    {a.title}
                  </a>
                ) : (
                  a.title
                )}
              </h2>
              <p>
                <strong>{`【${activityStatus(a, today)}】`}</strong>
                <span>{a.startAt === a.endAt ? a.startAt : `${a.startAt} 至 ${a.endAt}`}</span>
                {a.location ? <span> · {a.location}</span> : null}
              </p>
              {a.summary ? <p>{a.summary}</p> : null}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
