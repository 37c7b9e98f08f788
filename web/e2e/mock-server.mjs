// A small stand-in for `carepath serve`: serves the built web app and an in-memory
// subset of the HTTP API in docs/api.md, so the browser tests can run without the
// Rust server. Usage: node e2e/mock-server.mjs [port]  (0 picks a free port).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
export const DEMO_USER = { id: 'u-1', email: 'admin@carepath.test', full_name: 'Avery Admin', is_admin: true };
export const DEMO_PASSWORD = 'carepath-demo';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

function pipeline(intake) {
  return { label: 'New Client', description: 'Intake just completed', next_action: 'Schedule Assessment', next_route: `/assessments/new?intake_id=${intake.id}`, overdue: false, days_in_stage: 0 };
}

function summary(intake) {
  return {
    id: intake.id,
    version: intake.version,
    status: intake.status,
    client_full_name: intake.form.clientFullName || 'Draft - Unnamed Client',
    date_of_birth: intake.form.dateOfBirth || null,
    age: null,
    caller_name: intake.form.callerName,
    caller_phone: intake.form.callerPhone,
    caller_email: intake.form.callerEmail,
    services_required: intake.form.servicesRequired ?? [],
    created_at: intake.created_at,
    last_contact_date: null,
    next_follow_up_date: null,
    follow_up_notes: intake.form.followUpNotes || null,
    is_draft: intake.is_draft,
    position: { stage: 'intake', stage_entered_at: intake.created_at, archived: false, latest_assessment_id: null, latest_assessment_status: null, latest_care_plan_id: null, latest_care_plan_status: null, latest_contract_id: null, latest_contract_status: null },
    pipeline: pipeline(intake),
  };
}

function journey(intake) {
  const step = (stage, label, complete, route, enabled) => ({ stage, label, complete, date: complete ? intake.created_at : null, route, enabled });
  return [
    step('intake', 'Intake', true, `/intake?intake_id=${intake.id}&view=true`, true),
    step('assessment', 'Assessment', false, `/assessments/new?intake_id=${intake.id}`, true),
    step('care_plan', 'Care Plan', false, '/care-plans', false),
    step('contract', 'Contract', false, '/contracts', false),
  ];
}

export function createMockServer() {
  const sessions = new Set();
  const intakes = new Map();
  const contacts = new Map();
  const communications = [];

  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const fail = (res, status, code, message, fields) => send(res, status, { error: { code, message, ...(fields ? { fields } : {}) } });
  const readBody = (req) =>
    new Promise((resolve) => {
      let data = '';
      req.on('data', (chunk) => (data += chunk));
      req.on('end', () => resolve(data ? JSON.parse(data) : {}));
    });
  const signedIn = (req) => {
    const match = /carepath_session=([^;]+)/.exec(req.headers.cookie ?? '');
    return Boolean(match && sessions.has(match[1]));
  };

  const saveIntake = (form, { draft, existing }) => {
    const now = new Date().toISOString();
    const intake = existing ?? { id: randomUUID(), version: 0, status: 'pending', created_at: now, is_draft: draft };
    intake.version += 1;
    intake.form = form;
    intake.is_draft = draft;
    intakes.set(intake.id, intake);
    return { ...summary(intake), assigned_coordinator: null, updated_at: now, assessment_scheduled_date: null, deleted_at: null, form };
  };

  async function api(req, res, url) {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/api/auth/sign-in' && method === 'POST') {
      const body = await readBody(req);
      if (body.email !== DEMO_USER.email || body.password !== DEMO_PASSWORD) return fail(res, 401, 'unauthenticated', 'Invalid email or password');
      const token = randomUUID();
      sessions.add(token);
      return send(res, 200, DEMO_USER, { 'Set-Cookie': `carepath_session=${token}; HttpOnly; SameSite=Lax; Path=/` });
    }
    if (path === '/api/auth/sign-up' && method === 'POST') return fail(res, 403, 'forbidden', 'Sign-up is by invitation only. Ask an administrator to invite you.');
    if ((path === '/api/auth/magic-link' || path === '/api/auth/recover') && method === 'POST') return send(res, 202);
    if (!signedIn(req)) return fail(res, 401, 'unauthenticated', 'You are not signed in');
    if (path === '/api/auth/me') return send(res, 200, DEMO_USER);
    if (path === '/api/auth/sign-out') {
      sessions.clear();
      return send(res, 204, undefined, { 'Set-Cookie': 'carepath_session=; Max-Age=0; Path=/' });
    }
    if (path === '/api/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write(': connected\n\n');
      return undefined;
    }
    const all = [...intakes.values()].filter((intake) => !intake.is_draft).map(summary);
    if (path === '/api/dashboard') {
      return send(res, 200, { counts: { new_intakes: all.length, pending_assessments: 0, active_care_plans: 0, awaiting_signatures: 0 }, follow_ups_due_today: [], recent_activity: all.slice(0, 10) });
    }
    if (path === '/api/search') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      return send(res, 200, { items: all.filter((row) => `${row.client_full_name} ${row.caller_phone} ${row.caller_email}`.toLowerCase().includes(q)).slice(0, 10) });
    }
    if (path === '/api/intakes' && method === 'GET') return send(res, 200, { items: all, next_cursor: null, summary: { new: all.length, attention: 0, urgent: 0 } });
    if (path === '/api/intakes/awaiting-assessment') return send(res, 200, { items: all });
    if ((path === '/api/intakes' || path === '/api/intakes/draft') && method === 'POST') {
      const { form } = await readBody(req);
      const draft = path.endsWith('/draft');
      if (!draft) {
        const fields = {};
        for (const key of ['staffMemberTakingCall', 'callerName']) if (!form[key]) fields[key] = 'This field is required';
        if (!form.clientIsCaller && !form.clientFullName) fields.clientFullName = 'This field is required';
        const count = Object.keys(fields).length;
        if (count) return fail(res, 422, 'validation', `Missing Required Fields: Please fill in ${count} required field(s) highlighted in red.`, fields);
      }
      return send(res, 201, saveIntake(form, { draft, existing: null }));
    }
    let match = /^\/api\/intakes\/([^/]+)(\/draft|\/contacts)?$/.exec(path);
    if (match) {
      const intake = intakes.get(match[1]);
      if (!intake) return fail(res, 404, 'not_found', 'intake not found');
      if (match[2] === '/contacts') {
        if (method === 'POST') {
          const input = await readBody(req);
          const contact = { ...input, id: randomUUID(), version: 1, intake_id: intake.id, contact_type_label: input.contact_type, created_at: new Date().toISOString() };
          contacts.set(contact.id, contact);
          return send(res, 201, contact);
        }
        return send(res, 200, { items: [...contacts.values()].filter((contact) => contact.intake_id === intake.id) });
      }
      if (method === 'PUT') {
        const { form } = await readBody(req);
        return send(res, 200, saveIntake(form, { draft: match[2] === '/draft', existing: intake }));
      }
      return send(res, 200, saveIntake(intake.form, { draft: intake.is_draft, existing: { ...intake, version: intake.version - 1 } }));
    }
    match = /^\/api\/contacts\/([^/]+)$/.exec(path);
    if (match) {
      if (method === 'DELETE') {
        contacts.delete(match[1]);
        return send(res, 204);
      }
      const input = await readBody(req);
      const contact = { ...contacts.get(match[1]), ...input };
      contacts.set(match[1], contact);
      return send(res, 200, contact);
    }
    if (path === '/api/clients') {
      const rows = [...intakes.values()].filter((intake) => !intake.is_draft).map((intake) => ({ ...summary(intake), urgency: 'on_track', journey: journey(intake), view_route: `/intake?intake_id=${intake.id}&view=true` }));
      return send(res, 200, { items: rows, next_cursor: null, counts: { total: rows.length, intake: rows.length, assessment: 0, care_plan: 0, contract: 0, overdue: 0, archived: 0 } });
    }
    match = /^\/api\/clients\/([^/]+)$/.exec(path);
    if (match) {
      const intake = intakes.get(match[1]);
      if (!intake) return fail(res, 404, 'not_found', 'client not found');
      return send(res, 200, { intake: summary(intake), urgency: 'on_track', journey: journey(intake), view_route: `/intake?intake_id=${intake.id}&view=true`, assessment: null, care_plan: null, contract: null, contacts_count: 0 });
    }
    if (path === '/api/communications') {
      const intakeId = url.searchParams.get('intake_id');
      const visibility = url.searchParams.get('visibility');
      return send(res, 200, { items: communications.filter((entry) => entry.intake_id === intakeId && (!visibility || entry.visibility === visibility)) });
    }
    match = /^\/api\/communications\/(email|sms|notes|calls)$/.exec(path);
    if (match && method === 'POST') {
      const body = await readBody(req);
      const type = { email: 'email', sms: 'sms', notes: 'note', calls: 'phone_log' }[match[1]];
      const entry = {
        id: randomUUID(), version: 1, intake_id: body.intake_id ?? null, assessment_id: null, care_plan_id: null, contract_id: null, client_name: null,
        communication_type: type, direction: type === 'note' ? 'internal' : 'outbound', subject: body.subject ?? null, content: body.body ?? body.message ?? body.content ?? body.notes ?? '',
        recipient_email: type === 'email' ? body.to : null, recipient_phone: type === 'sms' ? body.to : (body.phone ?? null), sender_user_id: DEMO_USER.id, sender_name: DEMO_USER.full_name,
        status: 'sent', failure_reason: null, sent_at: new Date().toISOString(), created_at: new Date().toISOString(), visibility: body.internal ? 'internal' : 'client', tagged_user_ids: [], tagged_user_names: [],
      };
      communications.unshift(entry);
      return send(res, 201, entry);
    }
    if (path === '/api/users') return send(res, 200, { items: [{ id: DEMO_USER.id, full_name: DEMO_USER.full_name, email: DEMO_USER.email }] });
    if (path === '/api/assessments') return send(res, 200, { items: [], next_cursor: null, stats: { pending: 0, completed: 0, care_plans_generated: 0, total: 0 } });
    if (path === '/api/assessments/prefill') {
      const intake = intakes.get(url.searchParams.get('intake_id') ?? '');
      return send(res, 200, { clientName: intake?.form.clientFullName ?? '', phone: intake?.form.clientPhone ?? '', recommendedServices: [], preferredDays: [] });
    }
    return fail(res, 404, 'not_found', `No route for ${method} ${path}`);
  }

  async function file(res, path) {
    const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
    const target = join(DIST, safe);
    try {
      const data = await readFile(extname(target) ? target : join(DIST, 'index.html'));
      res.writeHead(200, { 'Content-Type': TYPES[extname(target)] ?? 'text/html' });
      res.end(data);
    } catch {
      const data = await readFile(join(DIST, 'index.html'));
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(data);
    }
  }

  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = url.pathname.startsWith('/api/') ? api(req, res, url) : file(res, url.pathname);
    handler.catch((error) => {
      console.error(error);
      if (!res.headersSent) fail(res, 500, 'internal', 'Internal error');
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 8080);
  const server = createMockServer();
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    console.log(`mock carepath listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`);
  });
}
