-- A fresh database starts with the spec's three default pricing templates, so an agency
-- can price its first care plan without demo data. A database that already has
-- templates (made by hand or by the demo) keeps its own.
INSERT INTO pricing_templates
    (id, name, base_rate, weekend_premium, evening_premium, overnight_premium,
     holiday_multiplier, notes, is_active, is_default, created_at, updated_at, version)
SELECT seeded.id, seeded.name, seeded.base_rate, seeded.weekend, seeded.evening,
       seeded.overnight, 1.5, seeded.notes, 1, seeded.is_default,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 1
FROM (
    SELECT '019ab000-0000-7000-8000-000000000001' AS id, 'Standard Companion Care' AS name,
           28.5 AS base_rate, 2.0 AS weekend, 0.0 AS evening, 0.0 AS overnight,
           'companionship and light housekeeping' AS notes, 1 AS is_default
    UNION ALL
    SELECT '019ab000-0000-7000-8000-000000000002', 'Personal Care Services',
           32.0, 2.0, 3.0, 5.0, NULL, 0
    UNION ALL
    SELECT '019ab000-0000-7000-8000-000000000003', 'Complex/Medical Care',
           35.0, 2.0, 4.0, 6.0, NULL, 0
) AS seeded
WHERE NOT EXISTS (SELECT 1 FROM pricing_templates);

-- When each user last signed in, for the admin panel's users list (sessions are deleted
-- at sign-out, so they cannot tell).
ALTER TABLE users ADD COLUMN last_sign_in_at TEXT;
