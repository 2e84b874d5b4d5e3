<?php
/**
 * Reports AI-crawler visits to the service (POST <address>/api/site/crawl). Crawlers run no JavaScript, so only the
 * site's own serving code can count them. Only a user agent on the shipped AI-crawler list is reported, never a
 * person's visit, and the report goes out after the page: from the shutdown hook, past fastcgi_finish_request when
 * the server has it, as a non-blocking request with a 1 s timeout.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Whether this user agent is on the AI-crawler list (includes/ai-crawlers.php, generated from the service's list).
 *
 * @param string $user_agent The request's User-Agent.
 * @return bool
 */
function sightline_is_ai_crawler( $user_agent ) {
	static $pattern = null;
	if ( null === $pattern ) {
		$pattern = '~' . implode( '|', sightline_ai_crawler_patterns() ) . '~i';
	}
	return '' !== $user_agent && 1 === preg_match( $pattern, $user_agent );
}

/**
 * On a front-end request from an AI crawler, queues its report for after the page.
 */
function sightline_watch_request() {
	if ( '' === sightline_address() || '' === (string) get_option( 'sightline_secret', '' ) ) {
		return;
	}
	$user_agent = isset( $_SERVER['HTTP_USER_AGENT'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_USER_AGENT'] ) ) : '';
	if ( ! sightline_is_ai_crawler( $user_agent ) ) {
		return;
	}
	$uri  = isset( $_SERVER['REQUEST_URI'] ) ? esc_url_raw( wp_unslash( $_SERVER['REQUEST_URI'] ) ) : '/';
	$path = (string) wp_parse_url( $uri, PHP_URL_PATH );
	if ( '' === $path || '/' !== $path[0] ) {
		$path = '/';
	}
	// The service refuses longer fields (1000 and 2048 characters).
	$visit = array(
		'user_agent' => substr( $user_agent, 0, 1000 ),
		'path'       => substr( $path, 0, 2048 ),
	);
	add_action(
		'shutdown',
		static function () use ( $visit ) {
			sightline_send_crawl_report( $visit );
		},
		PHP_INT_MAX
	);
}
add_action( 'template_redirect', 'sightline_watch_request' );

/**
 * Sends one report without waiting for the answer.
 *
 * @param array $visit The user_agent and path.
 */
function sightline_send_crawl_report( array $visit ) {
	// The page goes to the visitor first: PHP-FPM and LiteSpeed can end the response here; elsewhere it is at least
	// flushed (WordPress emptied its output buffers earlier in the shutdown hook).
	if ( function_exists( 'fastcgi_finish_request' ) ) {
		fastcgi_finish_request();
	} elseif ( function_exists( 'litespeed_finish_request' ) ) {
		litespeed_finish_request();
	} else {
		flush();
	}
	// Not blocking: with the fsockopen transport the request is written and left; the curl transport still waits for
	// the answer, which the timeout bounds.
	wp_remote_post(
		sightline_address() . '/api/site/crawl',
		array(
			'blocking' => false,
			'timeout'  => 1,
			'headers'  => array(
				'x-service-key'       => (string) get_option( 'sightline_secret', '' ),
				'content-type'        => 'application/json',
				'x-sightline-plugin'  => 'wordpress/' . sightline_version(),
			),
			'body'     => wp_json_encode( $visit ),
		)
	);
}
