-- Carepath schema 22: each client's first moment at each step of the pipeline is kept on
-- its intake row, so the analytics of a range read the range's intakes and nothing else
-- (at 100,000 clients a 90-day range holds about 88,000 of them; looking up six firsts
-- per client in four other tables took seconds).

-- NULL until reached. Deleted records do not count; a first contact is an outbound
-- email, SMS or call the family received (sent or delivered: a failed send told them
-- nothing), at the moment it went out.
ALTER TABLE intakes ADD COLUMN first_assessment_at TEXT;
ALTER TABLE intakes ADD COLUMN first_care_plan_at TEXT;
ALTER TABLE intakes ADD COLUMN first_proposal_sent_at TEXT;
ALTER TABLE intakes ADD COLUMN first_contract_at TEXT;
ALTER TABLE intakes ADD COLUMN first_signed_at TEXT;
ALTER TABLE intakes ADD COLUMN first_contact_at TEXT;

UPDATE intakes SET
    first_assessment_at = (
        SELECT min(a.created_at) FROM assessments a
        WHERE a.intake_id = intakes.id AND a.deleted_at IS NULL),
    first_care_plan_at = (
        SELECT min(c.created_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL),
    first_proposal_sent_at = (
        SELECT min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL),
    first_contract_at = (
        SELECT min(k.created_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL),
    first_signed_at = (
        SELECT min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL),
    first_contact_at = (
        SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
        WHERE m.intake_id = intakes.id AND m.direction = 'outbound'
          AND m.communication_type IN ('email', 'sms', 'phone_log')
          AND m.status IN ('sent', 'delivered'));

-- Assessments, care plans and contracts: a change that can move a first moment counts
-- the client's records again (a handful, on the index that starts with the intake). A
-- record moved to another client counts both. The intake row is written only when the
-- moment changed.
CREATE TRIGGER intakes_first_assessment_insert AFTER INSERT ON assessments
WHEN new.deleted_at IS NULL AND new.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET first_assessment_at = new.created_at
    WHERE id = new.intake_id
      AND (first_assessment_at IS NULL OR first_assessment_at > new.created_at);
END;
CREATE TRIGGER intakes_first_assessment_delete AFTER DELETE ON assessments
WHEN old.deleted_at IS NULL AND old.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET first_assessment_at = (
        SELECT min(a.created_at) FROM assessments a
        WHERE a.intake_id = intakes.id AND a.deleted_at IS NULL)
    WHERE id = old.intake_id AND first_assessment_at IS NOT (
        SELECT min(a.created_at) FROM assessments a
        WHERE a.intake_id = intakes.id AND a.deleted_at IS NULL);
END;
CREATE TRIGGER intakes_first_assessment_update AFTER UPDATE OF created_at, deleted_at, intake_id ON assessments
WHEN old.created_at IS NOT new.created_at OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
  OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE intakes SET first_assessment_at = (
        SELECT min(a.created_at) FROM assessments a
        WHERE a.intake_id = intakes.id AND a.deleted_at IS NULL)
    WHERE id IN (old.intake_id, new.intake_id) AND first_assessment_at IS NOT (
        SELECT min(a.created_at) FROM assessments a
        WHERE a.intake_id = intakes.id AND a.deleted_at IS NULL);
END;

CREATE TRIGGER intakes_first_care_plan_insert AFTER INSERT ON care_plan_proposals
WHEN new.deleted_at IS NULL AND new.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET (first_care_plan_at, first_proposal_sent_at) = (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL)
    WHERE id = new.intake_id AND (first_care_plan_at, first_proposal_sent_at) IS NOT (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL);
END;
CREATE TRIGGER intakes_first_care_plan_delete AFTER DELETE ON care_plan_proposals
WHEN old.deleted_at IS NULL AND old.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET (first_care_plan_at, first_proposal_sent_at) = (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL)
    WHERE id = old.intake_id AND (first_care_plan_at, first_proposal_sent_at) IS NOT (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL);
END;
CREATE TRIGGER intakes_first_care_plan_update AFTER UPDATE OF created_at, sent_at, deleted_at, intake_id ON care_plan_proposals
WHEN old.created_at IS NOT new.created_at OR old.sent_at IS NOT new.sent_at
  OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL) OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE intakes SET (first_care_plan_at, first_proposal_sent_at) = (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL)
    WHERE id IN (old.intake_id, new.intake_id) AND (first_care_plan_at, first_proposal_sent_at) IS NOT (
        SELECT min(c.created_at), min(c.sent_at) FROM care_plan_proposals c
        WHERE c.intake_id = intakes.id AND c.deleted_at IS NULL);
END;

CREATE TRIGGER intakes_first_contract_insert AFTER INSERT ON contracts
WHEN new.deleted_at IS NULL AND new.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET (first_contract_at, first_signed_at) = (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL)
    WHERE id = new.intake_id AND (first_contract_at, first_signed_at) IS NOT (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL);
END;
CREATE TRIGGER intakes_first_contract_delete AFTER DELETE ON contracts
WHEN old.deleted_at IS NULL AND old.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET (first_contract_at, first_signed_at) = (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL)
    WHERE id = old.intake_id AND (first_contract_at, first_signed_at) IS NOT (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL);
END;
CREATE TRIGGER intakes_first_contract_update AFTER UPDATE OF created_at, signed_at, deleted_at, intake_id ON contracts
WHEN old.created_at IS NOT new.created_at OR old.signed_at IS NOT new.signed_at
  OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL) OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE intakes SET (first_contract_at, first_signed_at) = (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL)
    WHERE id IN (old.intake_id, new.intake_id) AND (first_contract_at, first_signed_at) IS NOT (
        SELECT min(k.created_at), min(k.signed_at) FROM contracts k
        WHERE k.intake_id = intakes.id AND k.deleted_at IS NULL);
END;

-- Communications are written on every email, text and call, and a client's timeline can
-- be long, so a write only looks at its own row: one that counts as a contact lowers the
-- first contact when it is earlier (one lookup of the intake by id). The client's
-- contacts are counted again only when the row that was the first contact stops being
-- it (a send that failed after all, a row moved to another client); notes, replies and
-- pending sends do nothing.
CREATE TRIGGER intakes_first_contact_insert AFTER INSERT ON communications
WHEN new.intake_id IS NOT NULL AND new.direction = 'outbound'
  AND new.communication_type IN ('email', 'sms', 'phone_log')
  AND new.status IN ('sent', 'delivered') BEGIN
    UPDATE intakes SET first_contact_at = coalesce(new.sent_at, new.created_at)
    WHERE id = new.intake_id
      AND (first_contact_at IS NULL OR first_contact_at > coalesce(new.sent_at, new.created_at));
END;
CREATE TRIGGER intakes_first_contact_delete AFTER DELETE ON communications
WHEN old.intake_id IS NOT NULL AND old.direction = 'outbound'
  AND old.communication_type IN ('email', 'sms', 'phone_log')
  AND old.status IN ('sent', 'delivered') BEGIN
    UPDATE intakes SET first_contact_at = (
        SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
        WHERE m.intake_id = intakes.id AND m.direction = 'outbound'
          AND m.communication_type IN ('email', 'sms', 'phone_log')
          AND m.status IN ('sent', 'delivered'))
    WHERE id = old.intake_id AND first_contact_at = coalesce(old.sent_at, old.created_at)
      AND first_contact_at IS NOT (
        SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
        WHERE m.intake_id = intakes.id AND m.direction = 'outbound'
          AND m.communication_type IN ('email', 'sms', 'phone_log')
          AND m.status IN ('sent', 'delivered'));
END;
-- An update that makes a row count lowers the first contact like an insert. The two
-- kinds of update are two triggers so that the common one (a send that went out or was
-- delivered) runs only the lookup it needs.
CREATE TRIGGER intakes_first_contact_update
AFTER UPDATE OF intake_id, direction, communication_type, status, sent_at, created_at ON communications
WHEN new.intake_id IS NOT NULL AND new.direction = 'outbound'
  AND new.communication_type IN ('email', 'sms', 'phone_log')
  AND new.status IN ('sent', 'delivered') BEGIN
    UPDATE intakes SET first_contact_at = coalesce(new.sent_at, new.created_at)
    WHERE id = new.intake_id
      AND (first_contact_at IS NULL OR first_contact_at > coalesce(new.sent_at, new.created_at));
END;
-- A row that counted and no longer counts for the same client at the same moment or
-- earlier (a failed send after all, a row moved to another client) recounts the client
-- it counted for, when it was that client's first contact.
CREATE TRIGGER intakes_first_contact_lost
AFTER UPDATE OF intake_id, direction, communication_type, status, sent_at, created_at ON communications
WHEN old.intake_id IS NOT NULL AND old.direction = 'outbound'
  AND old.communication_type IN ('email', 'sms', 'phone_log')
  AND old.status IN ('sent', 'delivered')
  AND NOT (new.intake_id IS old.intake_id AND new.direction = 'outbound'
           AND new.communication_type IN ('email', 'sms', 'phone_log')
           AND new.status IN ('sent', 'delivered')
           AND coalesce(new.sent_at, new.created_at) <= coalesce(old.sent_at, old.created_at)) BEGIN
    UPDATE intakes SET first_contact_at = (
        SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
        WHERE m.intake_id = intakes.id AND m.direction = 'outbound'
          AND m.communication_type IN ('email', 'sms', 'phone_log')
          AND m.status IN ('sent', 'delivered'))
    WHERE id = old.intake_id AND first_contact_at = coalesce(old.sent_at, old.created_at)
      AND first_contact_at IS NOT (
        SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
        WHERE m.intake_id = intakes.id AND m.direction = 'outbound'
          AND m.communication_type IN ('email', 'sms', 'phone_log')
          AND m.status IN ('sent', 'delivered'));
END;
