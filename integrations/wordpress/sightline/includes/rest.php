<?php
/**
 * What Sightline's WordPress destination uses through the REST API: the post meta it writes (the marker that finds an
 * earlier delivery's post, the article's JSON-LD, and the active SEO plugin's title, description and canonical address) and a status
 * route that says the plugin is installed, its version and which SEO plugin is active.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Whether Yoast SEO is active.
 *
 * @return bool
 */
function sightline_yoast_active() {
	return defined( 'WPSEO_VERSION' );
}

/**
 * Whether Rank Math is active.
 *
 * @return bool
 */
function sightline_rank_math_active() {
	return defined( 'RANK_MATH_VERSION' ) || class_exists( 'RankMath' );
}

/**
 * Writing the meta through REST needs the right to edit that post (edit_posts for one's own).
 *
 * @param bool   $allowed   Whether the user may edit the meta so far.
 * @param string $meta_key  The meta key.
 * @param int    $object_id The post.
 * @return bool
 */
function sightline_can_edit_meta( $allowed, $meta_key, $object_id ) {
	return current_user_can( 'edit_posts' ) && current_user_can( 'edit_post', (int) $object_id );
}

/**
 * Keeps JSON-LD only when it is valid JSON, stored re-encoded.
 *
 * @param mixed $value The submitted JSON text.
 * @return string
 */
function sightline_sanitize_json_ld( $value ) {
	$decoded = json_decode( (string) $value, true );
	if ( ! is_array( $decoded ) ) {
		return '';
	}
	return (string) wp_json_encode( $decoded, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
}

/**
 * Registers the post meta for every post type that shows in REST.
 */
function sightline_register_meta() {
	$common = array(
		'type'          => 'string',
		'single'        => true,
		'show_in_rest'  => true,
		'auth_callback' => 'sightline_can_edit_meta',
	);
	register_post_meta( '', 'sightline_article_id', $common + array( 'sanitize_callback' => 'sanitize_text_field' ) );
	register_post_meta( '', 'sightline_schema_json_ld', $common + array( 'sanitize_callback' => 'sightline_sanitize_json_ld' ) );

	// Each SEO plugin's title, description and canonical address, by the sanitizer each needs.
	$seo_keys = array();
	if ( sightline_yoast_active() ) {
		$seo_keys += array(
			'_yoast_wpseo_title'     => 'sanitize_text_field',
			'_yoast_wpseo_metadesc'  => 'sanitize_text_field',
			'_yoast_wpseo_canonical' => 'esc_url_raw',
		);
	}
	if ( sightline_rank_math_active() ) {
		$seo_keys += array(
			'rank_math_title'         => 'sanitize_text_field',
			'rank_math_description'   => 'sanitize_text_field',
			'rank_math_canonical_url' => 'esc_url_raw',
		);
	}
	foreach ( $seo_keys as $key => $sanitize ) {
		register_post_meta( '', $key, $common + array( 'sanitize_callback' => $sanitize ) );
	}
}
add_action( 'init', 'sightline_register_meta' );

/**
 * The status route: GET /wp-json/sightline/v1/status for users who can edit posts.
 */
function sightline_register_routes() {
	register_rest_route(
		'sightline/v1',
		'/status',
		array(
			'methods'             => WP_REST_Server::READABLE,
			'callback'            => 'sightline_rest_status',
			'permission_callback' => static function () {
				return current_user_can( 'edit_posts' );
			},
		)
	);
}
add_action( 'rest_api_init', 'sightline_register_routes' );

/**
 * The plugin's version and the active SEO plugins.
 *
 * @return WP_REST_Response
 */
function sightline_rest_status() {
	return rest_ensure_response(
		array(
			'version'  => sightline_version(),
			'yoast'    => sightline_yoast_active(),
			'rankMath' => sightline_rank_math_active(),
		)
	);
}
