CREATE TABLE "pickup_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"opens_at" text NOT NULL,
	"closes_at" text NOT NULL,
	"place_en" text NOT NULL,
	"place_zh" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pickup_slots_days_check" CHECK ("pickup_slots"."first_day" <= "pickup_slots"."last_day"),
	CONSTRAINT "pickup_slots_hours_check" CHECK ("pickup_slots"."opens_at" ~ '^[0-2][0-9]:[0-5][0-9]$' and "pickup_slots"."closes_at" ~ '^[0-2][0-9]:[0-5][0-9]$' and "pickup_slots"."opens_at" < "pickup_slots"."closes_at")
);
--> statement-breakpoint
CREATE INDEX "pickup_slots_first_day_idx" ON "pickup_slots" USING btree ("first_day");