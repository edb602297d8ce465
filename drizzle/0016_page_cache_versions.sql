ALTER TABLE "users" ADD COLUMN "data_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand edit (decision 032): triggers keep users.data_version and events.updated_at current, so a
-- page rendered for a user can be reused until anything it shows changes, on every instance.
CREATE OR REPLACE FUNCTION "bump_user_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  uid uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME IN ('orders', 'registrations') THEN
    uid := r.user_id;
  ELSE
    SELECT "user_id" INTO uid FROM "orders" WHERE "id" = r.order_id;
  END IF;
  IF uid IS NOT NULL THEN
    UPDATE "users" SET "data_version" = "data_version" + 1 WHERE "id" = uid;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "orders_data_version" AFTER INSERT OR UPDATE OR DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION "bump_user_data_version"();--> statement-breakpoint
CREATE TRIGGER "order_payments_data_version" AFTER INSERT OR UPDATE OR DELETE ON "order_payments" FOR EACH ROW EXECUTE FUNCTION "bump_user_data_version"();--> statement-breakpoint
CREATE TRIGGER "receipts_data_version" AFTER INSERT OR UPDATE OR DELETE ON "receipts" FOR EACH ROW EXECUTE FUNCTION "bump_user_data_version"();--> statement-breakpoint
CREATE TRIGGER "registrations_data_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations" FOR EACH ROW EXECUTE FUNCTION "bump_user_data_version"();--> statement-breakpoint
CREATE TRIGGER "order_contents_data_version" AFTER INSERT OR UPDATE OR DELETE ON "order_contents" FOR EACH ROW EXECUTE FUNCTION "bump_user_data_version"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_data_version_on_identity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."name" IS DISTINCT FROM OLD."name" OR NEW."email" IS DISTINCT FROM OLD."email" THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_data_version_identity" BEFORE UPDATE ON "users" FOR EACH ROW EXECUTE FUNCTION "users_data_version_on_identity"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "events_touch_updated_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What an order card shows of its event (not the seat count, which every registration changes).
  IF (NEW."slug", NEW."type", NEW."name_en", NEW."name_zh", NEW."start_time", NEW."end_at", NEW."location_en",
      NEW."location_zh", NEW."form_modify_expires_at")
     IS DISTINCT FROM (OLD."slug", OLD."type", OLD."name_en", OLD."name_zh", OLD."start_time", OLD."end_at",
      OLD."location_en", OLD."location_zh", OLD."form_modify_expires_at") THEN
    NEW."updated_at" := greatest(now(), OLD."updated_at" + interval '1 microsecond');
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "events_updated_at" BEFORE UPDATE ON "events" FOR EACH ROW EXECUTE FUNCTION "events_touch_updated_at"();
