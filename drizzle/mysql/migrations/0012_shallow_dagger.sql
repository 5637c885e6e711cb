CREATE TABLE `idempotency_keys` (
	`scope` varchar(80) NOT NULL,
	`key` varchar(255) NOT NULL,
	`fingerprint` char(64) NOT NULL,
	`status` int,
	`headers` text,
	`body` longtext,
	`created_at` datetime(3) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	CONSTRAINT `idempotency_keys_pk` PRIMARY KEY(`scope`,`key`)
);
