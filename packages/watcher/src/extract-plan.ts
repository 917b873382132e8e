import type { XzeprEvent } from "@xzatoma/xzepr";

function asPlanText(candidate: unknown): string | undefined {
  if (typeof candidate === "string") return candidate.trim() === "" ? undefined : candidate;
  if (candidate !== null && typeof candidate === "object") return JSON.stringify(candidate);
  return undefined;
}

/**
 * The plan an XZepr event carries, by the original watcher's strategies: the first of
 * `data.events[0].payload.plan`, `data.events[0].payload` and `data.plan` that yields a value.
 * A string is used as it is; an object is serialised to JSON. Unlike the original, the whole
 * `data` object is not a plan: an event that carries none (XZepr's own "receiver created"
 * notices, for one) yields `undefined`.
 */
export function extractXzeprPlan(event: XzeprEvent): string | undefined {
  const data = event.data as { events?: { payload?: unknown }[]; plan?: unknown };
  const payload = data.events?.[0]?.payload;
  const plan = (payload as { plan?: unknown } | null | undefined)?.plan;
  if (plan !== undefined) return asPlanText(plan);
  if (payload !== undefined && payload !== null) {
    // An empty payload object carries nothing to run.
    if (typeof payload === "object" && Object.keys(payload).length === 0) return undefined;
    return asPlanText(payload);
  }
  return asPlanText(data.plan);
}

/**
 * Whether an XZepr event is one of XZepr's own notices about its receivers and groups
 * (`xzepr.event.receiver.created`, `xzepr.event.receiver.group.created`, ...): its entity's
 * payload describes the receiver or group, not work, so it carries nothing to run. A notice
 * whose entity names a `plan` is not one.
 */
export function isXzeprNotice(event: XzeprEvent): boolean {
  if (!event.type.startsWith("xzepr.event.receiver.")) return false;
  const data = event.data as { events?: { payload?: unknown }[]; plan?: unknown };
  const payload = data.events?.[0]?.payload;
  const named = payload !== null && typeof payload === "object" && "plan" in payload;
  return !named && data.plan === undefined;
}

/**
 * The plan a CloudEvent carries: `data.plan` when `data` is an object that has one, else
 * `data` itself (a plan object, or plan text in JSON, YAML or Markdown).
 */
export function extractCloudEventPlan(data: unknown): string | undefined {
  if (data !== null && typeof data === "object" && !Array.isArray(data) && "plan" in data)
    return asPlanText((data as { plan: unknown }).plan);
  if (data instanceof Uint8Array) return asPlanText(new TextDecoder().decode(data));
  return asPlanText(data);
}
