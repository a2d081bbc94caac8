// API Gateway path templates (`/audio/{audio_id}`): one path segment per {param}; `{proxy+}` takes the rest.

export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/').filter(Boolean);
  const p = path.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i]!;
    const greedy = /^\{(.+)\+\}$/.exec(seg);
    if (greedy) {
      if (i >= p.length) return undefined;
      params[greedy[1]!] = p.slice(i).map(decodeSegment).join('/');
      return params;
    }
    if (i >= p.length) return undefined;
    const param = /^\{(.+)\}$/.exec(seg);
    if (param) params[param[1]!] = decodeSegment(p[i]!);
    else if (seg !== p[i]) return undefined;
  }
  return t.length === p.length ? params : undefined;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
