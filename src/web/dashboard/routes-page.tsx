import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { mayDo } from '../../domain/dashboard-roles';
import {
  recoveredText,
  routeActions,
  routeBadges,
  routeHealthFacts,
  ROUTE_CAPABILITY_TITLES,
  ROUTES_TEXTS,
} from '../../domain/provider-routes-view';
import type { TDashboardSession } from '../../domain/schemas/dashboard';
import {
  ZDashboardRouteSettingsResponse,
  type TDashboardRouteChange,
  type TDashboardRoutesResponse,
  type TRouteCapability,
} from '../../domain/schemas/dashboard-routes';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { dashboardCall, messageOf } from './api';
import { useKeyedMutation } from './keyed-mutation';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';

type TChange = TDashboardRouteChange & { kind: 'pin' | 'pause' | 'clear' };

/**
 * Each capability's providers in order, their last hour, who is eliminated or paused, where new
 * work goes, and what failover recovered; owners pin, pause and resume (docs/dashboard.md
 * "Routes").
 */
export function RoutesPage({ session }: { session: TDashboardSession }) {
  const routes = useQuery(dashboardQueries.routes());
  const [said, setSaid] = useState('');
  const change = useKeyedMutation(
    ({ kind, ...asked }: TChange, key: string) =>
      dashboardCall(`/routes/${kind}`, ZDashboardRouteSettingsResponse, {
        method: 'POST',
        body: asked,
        key,
      }),
    [dashboardKeys.routes, dashboardKeys.audit],
  );
  const manage = mayDo(session.role, 'routes.manage');
  const onChange = (asked: TChange) => {
    setSaid('');
    change.mutate(asked, { onSuccess: () => setSaid(ROUTES_TEXTS.changed) });
  };
  return (
    <Screen title={ROUTES_TEXTS.title}>
      <p className="dash-hint">{ROUTES_TEXTS.lead}</p>
      <FormError message={routes.error ? messageOf(routes.error) : null} />
      {routes.isPending ? <p role="status">{ROUTES_TEXTS.title}…</p> : null}
      {routes.data ? <Recovered recovered={routes.data.recovered} /> : null}
      <FormError message={change.error ? messageOf(change.error) : null} />
      <p role="status" className="dash-hint">
        {said}
      </p>
      {routes.data?.capabilities.map((line) => (
        <CapabilityRoutes
          key={line.capability}
          line={line}
          onChange={manage ? onChange : null}
          busy={change.isPending}
        />
      ))}
    </Screen>
  );
}

/** Payments and naira recovered today and this month. */
function Recovered({ recovered }: { recovered: TDashboardRoutesResponse['recovered'] }) {
  return (
    <section className="dash-card" aria-labelledby="routes-recovered-title">
      <h2 id="routes-recovered-title">{ROUTES_TEXTS.recoveredTitle}</h2>
      <p className="dash-hint">{ROUTES_TEXTS.recoveredHint}</p>
      <dl className="dash-facts">
        <div className="dash-contents">
          <dt>{ROUTES_TEXTS.today}</dt>
          <dd>{recoveredText(recovered.today)}</dd>
        </div>
        <div className="dash-contents">
          <dt>{ROUTES_TEXTS.thisMonth}</dt>
          <dd>{recoveredText(recovered.month)}</dd>
        </div>
      </dl>
    </section>
  );
}

type TCapabilityProps = {
  line: TRouteCapability;
  /** Null for a role that may not change routes: no buttons drawn. */
  onChange: ((asked: TChange) => void) | null;
  busy: boolean;
};

/** One capability's list, in order, each provider with its state, last hour and actions. */
function CapabilityRoutes({ line, onChange, busy }: TCapabilityProps) {
  const titleId = `routes-${line.capability}-title`;
  return (
    <section className="dash-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{ROUTE_CAPABILITY_TITLES[line.capability]}</h2>
      <p>{line.next ? ROUTES_TEXTS.nextGoesTo(line.next) : ROUTES_TEXTS.noneTakes}</p>
      <ol className="dash-list">
        {line.providers.map((provider) => (
          <li key={provider.provider} className="dash-row">
            <strong>{provider.provider}</strong>
            <span className="dash-actions">
              {routeBadges(provider).map((badge) => (
                <span key={badge.text} className={`dash-status route-${badge.tone}`}>
                  {badge.text}
                </span>
              ))}
            </span>
            <span className="dash-muted">
              {ROUTES_TEXTS.lastHour}: {routeHealthFacts(provider).join(' · ')}
            </span>
            {onChange ? (
              <span className="dash-actions">
                {routeActions(provider, line.providers.length).map((action) => (
                  <Button
                    key={action.label}
                    variant="secondary"
                    disabled={busy}
                    onClick={() =>
                      onChange({
                        kind: action.kind,
                        capability: line.capability,
                        provider: provider.provider,
                      })
                    }
                  >
                    {action.label}
                  </Button>
                ))}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
