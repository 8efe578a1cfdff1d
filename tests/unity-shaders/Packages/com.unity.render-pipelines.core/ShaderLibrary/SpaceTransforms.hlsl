// Stand-in for com.unity.render-pipelines.core ShaderLibrary/SpaceTransforms.hlsl: the two
// transforms the far ground uses, over the pipeline's UNITY_MATRIX_* (each pipeline defines them).
// Source: Unity-Technologies/Graphics, Packages/com.unity.render-pipelines.core/ShaderLibrary/SpaceTransforms.hlsl.
#ifndef UNITY_SPACE_TRANSFORMS_INCLUDED
#define UNITY_SPACE_TRANSFORMS_INCLUDED
float4 TransformObjectToHClip(float3 positionOS)
{
    return mul(UNITY_MATRIX_VP, mul(UNITY_MATRIX_M, float4(positionOS, 1.0)));
}
float3 TransformObjectToWorldNormal(float3 normalOS, bool doNormalize = true)
{
    float3 normalWS = mul(normalOS, (float3x3)UNITY_MATRIX_I_M);
    return doNormalize ? normalize(normalWS) : normalWS;
}
#endif
