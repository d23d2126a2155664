"""A small MCP client on the Python MCP SDK (PyPI `mcp`), for test/mcp/clients-python.test.mjs.

Usage: python python-client.py COMMAND [ARGS...]  (the server's command line, started over stdio)

It initializes, lists the tools and the prompts, gets prompts (one with an argument, and an
unknown one, whose error it reports), calls a safe tool and a destructive one without "confirm",
then prints {"step": "ready"} and waits for notifications/prompts/list_changed (the test edits a
manifest when it reads that line) and lists the prompts again. Every step prints one JSON line on
stdout; the server's stderr goes to this process's stderr.
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

try:
    from mcp.shared.exceptions import MCPError
except ImportError:  # the SDK's 1.x name, for a run against an older SDK by hand
    from mcp.shared.exceptions import McpError as MCPError


def emit(step, **fields):
    print(json.dumps({"step": step, **fields}), flush=True)


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    changed = anyio.Event()

    async def on_message(message):
        inner = getattr(message, "root", message)
        if getattr(inner, "method", None) == "notifications/prompts/list_changed":
            changed.set()

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            init = dump(await session.initialize())
            emit("initialize", server=init["serverInfo"]["name"], protocol=init["protocolVersion"],
                 capabilities=init["capabilities"])

            tools = await session.list_tools()
            emit("tools", tools=[dump(t) for t in tools.tools])

            prompts = await session.list_prompts()
            emit("prompts", prompts=[dump(p) for p in prompts.prompts])

            got = await session.get_prompt("build_test_lint")
            emit("build_test_lint", result=dump(got))

            got = await session.get_prompt("recipes_git", {"goal": "undo my last commit"})
            emit("recipes_git", result=dump(got))

            try:
                await session.get_prompt("no_such_prompt")
                emit("unknown_prompt", error=None)
            except MCPError as error:
                emit("unknown_prompt", error={"code": error.error.code, "message": error.error.message})

            called = await session.call_tool("make_hello", {})
            emit("make_hello", result=dump(called))

            refused = await session.call_tool("make_wipe", {})
            emit("make_wipe", result=dump(refused))

            emit("ready")
            # A bound for a failing run only: the test edits the manifest as soon as it reads "ready".
            with anyio.fail_after(60):
                await changed.wait()
            prompts = await session.list_prompts()
            emit("prompts_after_change", prompts=[dump(p) for p in prompts.prompts])


anyio.run(main)
