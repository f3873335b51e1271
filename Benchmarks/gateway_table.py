"""The tables of Benchmarks/gateway-scale.py: cost per row and client (medians over the rounds,
ranges beside them), and latency per row and client (every window's updates pooled)."""
import statistics

SINK_NAMES = {'none': '–', 'stdout': 'stdout', 'mqtt': 'stdout + MQTT', 'http': 'stdout + HTTP'}
POINTS = [('journal', 'decided'), ('saved', 'state file saved'), ('stdout', 'stdout'), ('mqtt', 'MQTT handed over'), ('http', 'HTTP answered')]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def groups(results, binaries):
    """(sensors, rate, sinks, client) → windows, in the rows' order, the floor first."""
    found = {}
    order = {name: index for index, name in enumerate(['floor'] + binaries)}
    for result in results:
        found.setdefault((result['sensors'], result['rate'], result['sinks'], result['client']), []).append(result)
    return dict(sorted(found.items(), key=lambda item: (item[0][1] > 1, item[0][0], item[0][1], item[0][2] != 'none',
                                                        item[0][2], order.get(item[0][3], 99))))


def per_notification(window):
    return window['cpu_ns'] / 1000 / max(window['notifications'], 1)


def render(results, binaries):
    counted = {(r['sensors'], r['rate'], r['sinks'], r['client']): r['instructions'] / max(r['notifications'], 1)
               for r in results if 'instructions' in r}
    results = [r for r in results if 'instructions' not in r]
    grouped = groups(results, binaries)
    floors = {(k[0], k[1]): statistics.median(per_notification(w) for w in windows)
              for k, windows in grouped.items() if k[3] == 'floor'}
    loads = [w['load'] for w in results]
    lines = [f'{len(results)} windows; load average over the windows {min(loads):.1f}–{max(loads):.1f} (2 cores)', '',
             '| sensors | rate | sinks | client | notifications | CPU µs/notification (range) | × floor | peak RSS MB | threads '
             '| wake-ups/s | notifications/s | switches/notification | instructions/notification |',
             '|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    for (sensors, rate, sinks, client), windows in grouped.items():
        cpu = [per_notification(w) for w in windows]
        median = statistics.median(cpu)
        floor = floors.get((sensors, rate))
        seconds = sum(w['seconds'] for w in windows)
        notifications = sum(w['notifications'] for w in windows)
        voluntary = sum(w['voluntary'] for w in windows)
        switched = voluntary + sum(w['involuntary'] for w in windows)
        spread = f' ({min(cpu):.1f}–{max(cpu):.1f})' if len(cpu) > 1 else ''
        threads = '/'.join(sorted({str(w['threads']) for w in windows}))
        ratio = f'{median / floor:.2f}' if floor else '–'
        lines.append(f'| {sensors} | {rate:g} Hz | {SINK_NAMES[sinks]} | {client} | {notifications} | {median:.1f}{spread} | '
                     f'{ratio} | {max(w["rss_kb"] for w in windows) / 1024:.1f} | {threads} | '
                     f'{voluntary / seconds:.2f} | {notifications / seconds:.2f} | {switched / max(notifications, 1):.2f} | '
                     f"{counted.get((sensors, rate, sinks, client), 0):,.0f} |".replace('| 0 |', '| – |'))
    lines += ['', 'Latency from the notification\'s kernel receive stamp, ms: p50 / p99 / max (updates)', '',
              '| sensors | rate | sinks | client | ' + ' | '.join(title for _, title in POINTS) + ' |',
              '|---:|---:|---|---|' + '---|' * len(POINTS)]
    for (sensors, rate, sinks, client), windows in grouped.items():
        if client == 'floor':
            continue
        cells = []
        for point, _ in POINTS:
            values = [v for w in windows for v in w['latency'].get(point, [])]
            cells.append(f'{percentile(values, 0.5):.2f} / {percentile(values, 0.99):.2f} / {max(values):.2f} ({len(values)})'
                         if values else '–')
        lines.append(f'| {sensors} | {rate:g} Hz | {SINK_NAMES[sinks]} | {client} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)
