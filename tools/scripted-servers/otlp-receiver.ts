/**
 * A scripted OpenTelemetry collector on 127.0.0.1, for tests: it accepts OTLP/HTTP posts with
 * JSON bodies to `/v1/traces` and `/v1/metrics`, keeps them, and decodes spans and metric
 * points for assertions.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { closeServer, listenOnLoopback, readBody } from "./http.ts";

/** One OTLP/HTTP request the receiver got. */
export interface OtlpRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** An OTLP attribute value as OTLP/JSON encodes it. */
type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
};

/** A span of an OTLP/JSON export, with its attributes decoded. */
export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly kind: number;
  readonly status?: { code?: number; message?: string };
  readonly attributes: Record<string, string | number | boolean>;
  readonly resource: Record<string, string | number | boolean>;
}

function decode(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return JSON.stringify(value);
}

function attributes(list: { key: string; value: AnyValue }[] | undefined) {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, decode(entry.value)]));
}

interface ExportedSpans {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, "attributes" | "resource"> & {
        attributes?: { key: string; value: AnyValue }[];
      })[];
    }[];
  }[];
}

interface DataPoint {
  attributes?: { key: string; value: AnyValue }[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
}

interface ExportedMetrics {
  resourceMetrics?: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        sum?: { dataPoints?: DataPoint[] };
        histogram?: { dataPoints?: DataPoint[] };
      }[];
    }[];
  }[];
}

/** Starts the collector; anything but a POST to `/v1/traces` or `/v1/metrics` is answered 404. */
export async function startOtlpReceiver() {
  const requests: OtlpRequest[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = request.url ?? "";
      if (request.method !== "POST" || !["/v1/traces", "/v1/metrics"].includes(path)) {
        response.writeHead(404).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        response.writeHead(400).end();
        return;
      }
      requests.push({ path, headers: request.headers, body });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    /** Every span received, in arrival order. */
    spans(): ReceivedSpan[] {
      return requests
        .filter((request) => request.path === "/v1/traces")
        .flatMap((request) =>
          ((request.body as ExportedSpans).resourceSpans ?? []).flatMap((resourceSpans) => {
            const resource = attributes(resourceSpans.resource?.attributes);
            return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
              (scope.spans ?? []).map((span) => ({
                ...span,
                attributes: attributes(span.attributes),
                resource,
              })),
            );
          }),
        );
    },
    /**
     * The last value received of a metric's points whose attributes include `labels`:
     * counters summed, histograms as count and sum (cumulative, so the last export wins).
     */
    metric(name: string, labels: Record<string, string | number> = {}) {
      const exports = requests.filter((request) => request.path === "/v1/metrics");
      const last = exports.at(-1)?.body as ExportedMetrics | undefined;
      const metric = (last?.resourceMetrics ?? [])
        .flatMap((resource) => resource.scopeMetrics ?? [])
        .flatMap((scope) => scope.metrics ?? [])
        .find((entry) => entry.name === name);
      const points = (metric?.sum?.dataPoints ?? metric?.histogram?.dataPoints ?? []).filter(
        (point) => {
          const decoded = attributes(point.attributes);
          return Object.entries(labels).every(([key, value]) => decoded[key] === value);
        },
      );
      return {
        value: points.reduce(
          (total, point) => total + Number(point.asInt ?? point.asDouble ?? 0),
          0,
        ),
        count: points.reduce((total, point) => total + Number(point.count ?? 0), 0),
        sum: points.reduce((total, point) => total + Number(point.sum ?? 0), 0),
      };
    },
    close: () => closeServer(server),
  };
}
