CREATE TABLE "organisers" (
	"email" text PRIMARY KEY NOT NULL,
	"granted_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisers_email_check" CHECK ("organisers"."email" = lower("organisers"."email") and "organisers"."email" like '%_@_%')
);
