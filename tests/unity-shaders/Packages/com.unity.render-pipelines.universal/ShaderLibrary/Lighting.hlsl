// Stand-in for URP's ShaderLibrary/Lighting.hlsl: the main light (RealtimeLights.hlsl in URP
// 12+, Lighting.hlsl before; the four fields both have) and the ambient probe
// (GlobalIllumination.hlsl, `half3 SampleSH(half3 normalWS)`; L0 + L1 here).
// Source: Unity-Technologies/Graphics, Packages/com.unity.render-pipelines.universal/ShaderLibrary/.
#ifndef UNIVERSAL_LIGHTING_INCLUDED
#define UNIVERSAL_LIGHTING_INCLUDED
struct Light
{
    half3 direction;
    half3 color;
    float distanceAttenuation;
    half shadowAttenuation;
};
Light GetMainLight()
{
    Light light;
    light.direction = half3(_MainLightPosition.xyz);
    light.color = _MainLightColor.rgb;
    light.distanceAttenuation = 1.0;
    light.shadowAttenuation = 1.0;
    return light;
}
half3 SampleSH(half3 normalWS)
{
    half4 n = half4(normalWS, 1.0);
    return max(half3(0, 0, 0), half3(dot(unity_SHAr, n), dot(unity_SHAg, n), dot(unity_SHAb, n)));
}
#endif
