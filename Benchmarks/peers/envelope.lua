-- wrk script for ingest-throughput: posts one Sentry envelope per request, each with an event_id never sent before.
--
--   wrk -t2 -c16 -d14s -s Benchmarks/peers/envelope.lua http://127.0.0.1:PORT -- \
--       TEMPLATE METHOD PATH AUTH SECONDS RUN
--
-- TEMPLATE  a file holding one envelope as an SDK sends it (uncompressed): a header line, an event item header, the
--           event. Its event_id, in the envelope header and in the event, is replaced in every request.
-- METHOD    POST to an ingest; GET to serve's /health for the generator's ceiling (the same requests, bodies and
--           all, answered by a handler that drops the body).
-- PATH      /api/<project>/envelope/, or /health.
-- AUTH      the X-Sentry-Auth header: Sentry sentry_key=...
-- SECONDS   how long to send; after that each connection waits for its last answer and the thread stops, so that
--           every request sent is answered before wrk's own -d ends (give -d a few seconds more).
-- RUN       16 hex digits, different for every run against the same ingest.
--
-- An event_id is RUN, the thread's number and the thread's count of requests, 32 hex digits: unique across threads,
-- runs and rounds. At the end it prints one JSON line starting with "ingest-throughput: ": the requests sent, answered
-- and answered with each status, the seconds from the first request to the last answer, wrk's latency percentiles in
-- microseconds and wrk's error counts. Counting answers in response() made no measurable difference to wrk's rate.

local ffi = require("ffi")
ffi.cdef([[
struct timespec { long tv_sec; long tv_nsec; };
int clock_gettime(int clock, struct timespec *time);
]])
local clock = ffi.new("struct timespec")

-- CLOCK_MONOTONIC, in seconds.
local function now()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) * 1e-9
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("number", #threads)
end

local parts, method, path, run, deadline
-- Read by done() through thread:get, so globals.
sent, answered, statuses, first, last = 0, 0, {}, nil, nil

function init(args)
  local file = assert(io.open(args[1], "rb"), "cannot open the envelope template " .. tostring(args[1]))
  local template = file:read("*a")
  file:close()
  local id = assert(template:match('"event_id":"(%x+)"'), "the template's header has no event_id")
  parts = {}
  local start = 1
  while true do
    local from, to = template:find(id, start, true)
    if not from then break end
    table.insert(parts, template:sub(start, from - 1))
    start = to + 1
  end
  table.insert(parts, template:sub(start))
  method, path = args[2], args[3]
  wrk.headers["X-Sentry-Auth"] = args[4]
  wrk.headers["Content-Type"] = "application/x-sentry-envelope"
  deadline = now() + tonumber(args[5])
  run = args[6]
end

-- Before the run, wrk calls request() once in its first thread to check the request it makes
-- (script_verify_request); that one is never sent, so it is not counted.
local checked = false

function request()
  if number == 1 and not checked then
    checked = true
    return wrk.format(method, path, nil, table.concat(parts, string.rep("0", 32)))
  end
  local time = now()
  if time >= deadline then
    -- Nothing more to send: an empty request leaves the connection waiting, and the thread stops once every
    -- request it sent is answered.
    if answered == sent then wrk.thread:stop() end
    return ""
  end
  first = first or time
  sent = sent + 1
  local id = string.format("%s%08x%08x", run, number, sent)
  local body = table.concat(parts, id)
  return wrk.format(method, path, nil, body)
end

function response(status, headers, body)
  answered = answered + 1
  statuses[status] = (statuses[status] or 0) + 1
  last = now()
  if answered == sent and last >= deadline then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local totals = { sent = 0, answered = 0 }
  local statuses = {}
  local first, last = math.huge, 0
  for _, thread in ipairs(threads) do
    totals.sent = totals.sent + thread:get("sent")
    totals.answered = totals.answered + thread:get("answered")
    for status, count in pairs(thread:get("statuses")) do
      statuses[status] = (statuses[status] or 0) + count
    end
    first = math.min(first, thread:get("first") or math.huge)
    last = math.max(last, thread:get("last") or 0)
  end
  local counts = {}
  for status, count in pairs(statuses) do
    table.insert(counts, string.format('"%d":%d', status, count))
  end
  local errors = summary.errors
  io.write(string.format(
    'ingest-throughput: {"sent":%d,"answered":%d,"statuses":{%s},"seconds":%.6f,'
      .. '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    totals.sent, totals.answered, table.concat(counts, ","), math.max(0, last - first),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
