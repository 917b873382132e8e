import { writeFile } from "node:fs/promises";
import path from "node:path";
import { startScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createHookFixture,
  hook,
  last,
  logTo,
  startHookedRuntime,
  type ChatView,
  type HookFixture,
} from "./hooks.test-support.js";

let fixture: HookFixture;
beforeEach(async () => {
  fixture = await createHookFixture();
});
afterEach(async () => {
  await fixture.close();
});

const answer = (content: string) => () => ({ content });
const system = (view: ChatView | undefined) =>
  view?.messages.find((message) => message.role === "system")?.content ?? "";

describe("UserPromptSubmit", () => {
  it("gives the prompt as typed and adds the hook's context to what the model reads", async () => {
    const log = fixture.log("prompt.jsonl");
    const script = await fixture.script(
      "context.sh",
      logTo(
        log,
        `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"PROMPT-CONTEXT: the branch is main"}}'`,
      ),
    );
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { UserPromptSubmit: hook(script) },
      scenario: answer("ok"),
    });
    try {
      const result = await started.runtime.run("what branch?");
      expect(result.stopReason).toBe("completed");
    } finally {
      await started.close();
    }
    expect(await fixture.events(log)).toMatchObject([
      { hook_event_name: "UserPromptSubmit", prompt: "what branch?" },
    ]);
    const user = last(started.seen[0], "user");
    expect(user).toContain("what branch?");
    expect(user).toContain("PROMPT-CONTEXT: the branch is main");
  });

  it("exit 2 refuses the prompt: the model is never asked and the reason is the run's error", async () => {
    const script = await fixture.script(
      "block.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'no secrets in prompts' >&2\nexit 2\n",
    );
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { UserPromptSubmit: hook(script) },
      scenario: answer("should not be asked"),
    });
    try {
      const result = await started.runtime.run("my password is hunter2");
      expect(result.stopReason).toBe("error");
      expect(result.error?.message).toContain(
        "A UserPromptSubmit hook refused the prompt: no secrets in prompts",
      );
    } finally {
      await started.close();
    }
    expect(started.seen).toHaveLength(0);
  });
});

describe("Stop", () => {
  it("a blocking Stop hook sends the agent on with its reason, once, then lets it stop", async () => {
    const log = fixture.log("stop.jsonl");
    const script = await fixture.script(
      "stop.sh",
      `#!/bin/sh\nevent=$(cat)\necho "$event" >> ${JSON.stringify(log)}\ncase "$event" in *'"stop_hook_active":false'*) echo 'the tests were not run yet' >&2; exit 2;; esac\nexit 0\n`,
    );
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { Stop: hook(script) },
      scenario: (_request, index) => ({ content: index === 0 ? "first answer" : "tests pass" }),
    });
    let text = "";
    let turns = 0;
    try {
      const result = await started.runtime.run("fix it");
      text = result.text;
      turns = result.turns;
    } finally {
      await started.close();
    }
    expect(started.seen).toHaveLength(2);
    expect(last(started.seen[1], "user")).toContain("the tests were not run yet");
    expect(text).toBe("tests pass");
    expect(turns).toBe(2);
    expect(await fixture.events(log)).toMatchObject([
      { hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "first answer" },
      { hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "tests pass" },
    ]);
  });

  it("a Stop hook that always blocks is ended after five continuations", async () => {
    const script = await fixture.script(
      "always.sh",
      `#!/bin/sh\ncat > /dev/null\necho '{"decision":"block","reason":"keep going"}'\n`,
    );
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { Stop: hook(script) },
      scenario: answer("again"),
    });
    try {
      const result = await started.runtime.run("go");
      expect(result.stopReason).toBe("completed");
    } finally {
      await started.close();
    }
    expect(started.seen).toHaveLength(6);
    expect(started.warnings.join("\n")).toContain("still blocking after 5 continuations");
  });
});

describe("SubagentStart and SubagentStop", () => {
  it("add context to the child's task and send it on once, with the events on standard input", async () => {
    const log = fixture.log("subagent.jsonl");
    const start = await fixture.script(
      "start.sh",
      logTo(
        log,
        `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"CHILD-CONTEXT: be brief"}}'`,
      ),
    );
    const stop = await fixture.script(
      "stop.sh",
      `#!/bin/sh\nevent=$(cat)\necho "$event" >> ${JSON.stringify(log)}\ncase "$event" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"cite the file"}';; esac\nexit 0\n`,
    );
    const child: ChatView[] = [];
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: {
        SubagentStart: hook(start, { matcher: "subagent" }),
        SubagentStop: hook(stop),
      },
      subagents: true,
      scenario: (request) => {
        if (system(request).includes("You are a subagent")) {
          child.push(request);
          return { content: child.length === 1 ? "child draft" : "child final (notes.txt)" };
        }
        return request.messages.some((message) => message.role === "tool")
          ? { content: "parent done" }
          : {
              toolCalls: [
                {
                  name: "subagent",
                  arguments: { label: "reader", task_prompt: "Summarise notes.txt" },
                },
              ],
            };
      },
    });
    try {
      await started.runtime.run("delegate");
    } finally {
      await started.close();
    }
    expect(child).toHaveLength(2);
    expect(last(child[0], "user")).toContain("CHILD-CONTEXT: be brief");
    expect(last(child[1], "user")).toContain("cite the file");
    const parentTool = last(started.seen.at(-1), "tool");
    expect(parentTool).toContain("child final (notes.txt)");
    const events = await fixture.events(log);
    expect(events.map((event) => event["hook_event_name"])).toEqual([
      "SubagentStart",
      "SubagentStop",
      "SubagentStop",
    ]);
    expect(events[0]).toMatchObject({ agent_type: "subagent", agent_label: "reader" });
    expect(events[1]).toMatchObject({
      stop_hook_active: false,
      last_assistant_message: "child draft",
    });
  });
});

describe("SessionStart and SessionEnd", () => {
  it("start with the hook's text in the instructions and end on clear and close", async () => {
    const log = fixture.log("session.jsonl");
    const start = await fixture.script("start.sh", logTo(log, "echo 'SESSION-CONTEXT: on call'"));
    const end = await fixture.script("end.sh", logTo(log));
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { SessionStart: hook(start), SessionEnd: hook(end) },
      scenario: answer("ok"),
    });
    try {
      await started.runtime.run("hello");
      started.runtime.clear();
      await started.runtime.run("hello again");
    } finally {
      await started.close();
    }
    expect(system(started.seen[0])).toContain("SESSION-CONTEXT: on call");
    expect(system(started.seen[1])).toContain("SESSION-CONTEXT: on call");
    const events = await fixture.events(log);
    expect(
      events.map((event) => [event["hook_event_name"], event["source"] ?? event["reason"]]),
    ).toEqual([
      ["SessionStart", "startup"],
      ["SessionEnd", "clear"],
      ["SessionStart", "clear"],
      ["SessionEnd", "other"],
    ]);
  });

  it("a SessionStart matcher selects the sources it runs for", async () => {
    const log = fixture.log("resume-only.jsonl");
    const script = await fixture.script("resume.sh", logTo(log));
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { SessionStart: hook(script, { matcher: "resume|compact" }) },
      scenario: answer("ok"),
    });
    await started.close();
    expect(await fixture.events(log)).toEqual([]);
  });
});

describe("PreCompact", () => {
  it("runs before a manual compaction with its instructions, and when context is pruned", async () => {
    const log = fixture.log("compact.jsonl");
    const script = await fixture.script("compact.sh", logTo(log));
    await writeFile(
      path.join(fixture.workspace, "big.txt"),
      Array.from({ length: 400 }, (_, line) => `line ${line} of a long file to read`).join("\n"),
    );
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { PreCompact: hook(script) },
      agent: { conversation: { max_tokens: 6000, prune_threshold: 0.5, min_retain_turns: 1 } },
      scenario: (_request, index) =>
        index < 3
          ? {
              toolCalls: [
                { name: "read_file", arguments: { path: "big.txt", start_line: index + 1 } },
              ],
            }
          : { content: "read" },
    });
    try {
      await started.runtime.run("read big.txt three times");
      await started.runtime.compact({ instructions: "keep the plan" });
    } finally {
      await started.close();
    }
    const events = await fixture.events(log);
    expect(events.map((event) => event["trigger"])).toContain("auto");
    expect(events.at(-1)).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "keep the plan",
    });
  });
});

describe("Notification", () => {
  it("hears a permission prompt when a person is asked", async () => {
    const log = fixture.log("notification.jsonl");
    const script = await fixture.script("notify.sh", logTo(log));
    let asked = 0;
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { Notification: hook(script, { matcher: "permission_prompt" }) },
      modes: { chatMode: "write", approvalPolicy: "untrusted" },
      ask: () => {
        asked += 1;
        return Promise.resolve({ approved: true, byPerson: true });
      },
      scenario: (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: "write_file", arguments: { path: "new.txt", content: "x" } }] }
          : { content: "written" },
    });
    try {
      await started.runtime.run("write new.txt");
    } finally {
      await started.close();
    }
    expect(asked).toBe(1);
    expect(await fixture.events(log)).toMatchObject([
      {
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "XZatoma needs your permission to use write_file",
      },
    ]);
  });
});
